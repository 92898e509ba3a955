'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/lib/trpc/client';
import { card } from './catalog-ui';
import { formatDateTime } from './format';
import { QuestionnaireStatusBadge, ShortHash } from './intake-ui';
import { QuestionnaireApproveButton } from './questionnaire-approve-button';
import { QuestionnaireDiffView } from './questionnaire-diff-view';
import { QuestionnairePreview } from './questionnaire-preview';
import { Loading, QueryError } from './query-state';
import type { QuestionnaireVersion } from './questionnaire-types';

/**
 * The versions waiting for a provider, oldest first: each in words, with what it changes against the
 * version in use, and the approval (bound to the content hash shown).
 */
export function QuestionnairePending({ mode, isProvider }: { mode: string; isProvider: boolean }) {
  const trpc = useTRPC();
  const versions = useQuery(trpc.intake.questionnaireVersions.queryOptions({}));
  // Versions approved on this page: they leave the list when it is read again, so their outcome is said here.
  const [approved, setApproved] = useState<QuestionnaireVersion[]>([]);
  const outcomes = (
    <div role="status" className="space-y-1">
      {approved.map((a) => (
        <p key={a.id} data-testid="questionnaire-approved" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          Approved: version {a.version} of {a.key} is now the one patients answer; the previous version is retired.
        </p>
      ))}
    </div>
  );
  if (versions.isPending) return <Loading label="Loading the versions pending approval…" />;
  if (versions.isError) return <QueryError error={versions.error} title="The questionnaires could not be read." />;
  const all = versions.data;
  const pending = all.filter((v) => v.status === 'pending').sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.version - b.version);
  return (
    <div className="space-y-4">
      {outcomes}
      {pending.length === 0 ? (
        <p data-testid="pending-empty" className="text-sm text-slate-600">No questionnaire versions wait for approval in {mode}.</p>
      ) : (
    <ul className="space-y-6">
      {pending.map((v) => {
        const current = all.find((c) => c.key === v.key && c.status === 'approved');
        return (
          <li key={v.id} data-testid="pending-questionnaire" data-id={v.id} className={`${card} min-w-0 space-y-4`}>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <h2 className="text-lg font-semibold break-words">
                {v.title} <span className="font-normal text-slate-600">v{v.version}</span>
              </h2>
              <QuestionnaireStatusBadge status={v.status} />
              <code className="font-mono text-xs text-slate-500">{v.key}</code>
              <ShortHash hash={v.contentHash} />
              <span className="text-sm text-slate-600">
                {v.origin === 'ai' ? 'AI draft' : 'published'} {formatDateTime(v.createdAt)}
              </span>
            </div>
            <section aria-label={`Changes in ${v.key} v${v.version}`} className="space-y-2">
              <h3 className="text-base font-semibold">Changes against the version in use</h3>
              {current ? (
                <QuestionnaireDiffView before={current.document} after={v.document} beforeLabel={`v${current.version} (in use)`} afterLabel={`v${v.version}`} />
              ) : (
                <p className="text-sm text-slate-600">No version of this questionnaire is in use yet: everything below is new.</p>
              )}
            </section>
            <details className="rounded-md border border-slate-200 px-3 py-2" open={!current}>
              <summary className="cursor-pointer text-sm font-medium text-indigo-700">The whole of v{v.version}</summary>
              <div className="pt-3">
                <QuestionnairePreview doc={v.document} />
              </div>
            </details>
            <QuestionnaireApproveButton version={v} isProvider={isProvider} onApproved={(a) => setApproved((list) => [...list, a])} />
          </li>
        );
      })}
    </ul>
      )}
    </div>
  );
}
