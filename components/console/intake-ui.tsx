import type { QStatus } from './questionnaire-types';
import { ViewTabs } from '@/components/console/view-tabs';

/** Small pieces shared by the intake pages (no hooks: server or client). */

/** Who may read questionnaires: catalog managers and providers (the /v1 questionnaire scopes). */
export const readsQuestionnaires = (scopes: readonly string[]) => scopes.includes('catalog.manage') || scopes.includes('intake.review');

const TONE: Record<QStatus, string> = {
  approved: 'bg-emerald-100 text-emerald-800',
  pending: 'bg-amber-100 text-amber-900',
  draft: 'bg-slate-200 text-slate-700',
  retired: 'bg-slate-100 text-slate-600',
};

export function QuestionnaireStatusBadge({ status }: { status: QStatus }) {
  return (
    <span data-testid="questionnaire-status" className={`rounded px-2 py-0.5 text-xs font-medium whitespace-nowrap ${TONE[status]}`}>
      {status}
    </span>
  );
}

/** The first 12 hex digits of a content hash: enough to tell versions apart on screen (the full one is in the title). */
export function ShortHash({ hash }: { hash: string }) {
  return (
    <code title={hash} data-testid="content-hash" className="font-mono text-xs text-slate-600">
      {hash.slice(0, 12)}
    </code>
  );
}

/** The questionnaire views: the library, the versions waiting for a provider, and the builder. */
export function QuestionnaireTabs({ active }: { active: 'library' | 'pending' | 'build' }) {
  return (
    <ViewTabs
      label="Questionnaire views"
      tabs={[
        { href: '/intake/questionnaires', label: 'Library', active: active === 'library' },
        { href: '/intake/questionnaires/pending', label: 'Pending approval', active: active === 'pending' },
        { href: '/intake/questionnaires/new', label: 'New questionnaire', active: active === 'build' },
      ]}
    />
  );
}
