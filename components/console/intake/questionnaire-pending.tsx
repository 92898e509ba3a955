'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { card } from '../catalog/catalog-ui';
import { formatDateTime } from '../ui/format';
import { QuestionnaireStatusBadge, ShortHash } from './intake-ui';
import { QuestionnaireApproveButton } from './questionnaire-approve-button';
import { QuestionnaireDiffView } from './questionnaire-diff-view';
import { QuestionnairePreview } from './questionnaire-preview';
import { QuestionnairePrescribes } from './questionnaire-prescribes';
import { Loading, QueryError } from '../ui/query-state';
import type { QuestionnaireRecord } from './questionnaire-types';

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "version 2", "versions 2 and 3", "versions 1, 2 and 3". */
const olderWords = (vs: number[]) =>
  vs.length === 1 ? `version ${vs[0]}` : `versions ${vs.slice(0, -1).join(', ')} and ${vs[vs.length - 1]}`;

/**
 * The versions waiting for a provider, oldest first: each in words, with what it changes against the
 * version in use, what it prescribes (the protocol's products, strengths, quantities, sig and refills) and its
 * identity facts (DESIGN decision 45), and the approval (bound to the content hash shown). A superseded version
 * is not pending, so it is never listed here.
 */
export function QuestionnairePending({ mode, isProvider }: { mode: string; isProvider: boolean }) {
  const trpc = useTRPC();
  const versions = useQuery(trpc.intake.questionnaireVersions.queryOptions({}));
  // Versions approved on this page: they leave the list when it is read again, so their outcome is said here,
  // with the older pending versions of the same key that the approval superseded (they leave the list too).
  const [approved, setApproved] = useState<{ record: QuestionnaireRecord; replaced: number[] }[]>([]);
  const outcomes = (
    <div role="status" className="space-y-1">
      {approved.map(({ record: a, replaced }) => (
        <p key={a.id} data-testid="questionnaire-approved" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          Approved: version {a.version} of {a.key} is now the one patients answer; the previous version is retired.
          {replaced.length > 0 && ` ${capitalize(olderWords(replaced))} no longer ${replaced.length === 1 ? 'waits' : 'wait'} for approval: replaced by version ${a.version}.`}
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
        const older = pending.filter((o) => o.key === v.key && o.version < v.version).map((o) => o.version);
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
            <section aria-label={`What ${v.key} v${v.version} prescribes`}>
              <QuestionnairePrescribes version={v} />
            </section>
            <details className="rounded-md border border-slate-200 px-3 py-2" open={!current}>
              <summary className="cursor-pointer text-sm font-medium text-indigo-700">The whole of v{v.version}</summary>
              <div className="pt-3">
                <QuestionnairePreview doc={v.document} />
              </div>
            </details>
            {older.length > 0 && (
              <p data-testid="supersedes-note" className="text-sm text-slate-700">
                Approving v{v.version} also takes {olderWords(older)} of this questionnaire out of this list: {older.length === 1 ? 'it' : 'they'} can then no longer be
                approved.
              </p>
            )}
            <QuestionnaireApproveButton version={v} isProvider={isProvider} onApproved={(a) => setApproved((list) => [...list, { record: a, replaced: older }])} />
          </li>
        );
      })}
    </ul>
      )}
    </div>
  );
}
