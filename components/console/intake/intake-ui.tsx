import type { QStatus } from './questionnaire-types';
import { ViewTabs } from '@/components/console/ui/view-tabs';

/** Small pieces shared by the intake pages (no hooks: server or client). */

/** Who may read questionnaires: catalog managers and providers (the /v1 questionnaire scopes). */
export const readsQuestionnaires = (scopes: readonly string[]) => scopes.includes('catalog.manage') || scopes.includes('intake.review');

const TONE: Record<QStatus, string> = {
  approved: 'bg-emerald-100 text-emerald-800',
  pending: 'bg-amber-100 text-amber-900',
  draft: 'bg-slate-200 text-slate-700',
  retired: 'bg-slate-100 text-slate-600',
  superseded: 'bg-slate-100 text-slate-600',
};

/** A version's state in words (never the API's tokens); a superseded one names the version approved in its place. */
export function questionnaireStatusWords(status: QStatus, replacedBy?: number): string {
  switch (status) {
    case 'pending':
      return 'pending approval';
    case 'superseded':
      return replacedBy === undefined ? 'replaced before approval' : `replaced by v${replacedBy} before approval`;
    default:
      return status;
  }
}

/** The version that superseded `v`, by number, among `all` (the versions of its key the page holds). */
export const replacedBy = (v: { supersededBy: string | null }, all: readonly { id: string; version: number }[]) =>
  v.supersededBy ? all.find((x) => x.id === v.supersededBy)?.version : undefined;

export function QuestionnaireStatusBadge({ status, replacedBy: by }: { status: QStatus; replacedBy?: number }) {
  return (
    <span data-testid="questionnaire-status" data-status={status} className={`rounded px-2 py-0.5 text-xs font-medium whitespace-nowrap ${TONE[status]}`}>
      {questionnaireStatusWords(status, by)}
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
