'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/web/trpc/client';
import { card } from '../catalog/catalog-ui';
import { formatDateTime } from '../ui/format';
import { QuestionnaireStatusBadge, questionnaireStatusWords, replacedBy, ShortHash } from './intake-ui';
import { buildHref, VersionsTable } from './questionnaire-library';
import { QuestionnaireDiffView } from './questionnaire-diff-view';
import { QuestionnairePreview } from './questionnaire-preview';
import { QuestionnairePrescribes } from './questionnaire-prescribes';
import { Loading, QueryError } from '../ui/query-state';

const select = 'mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none';

/**
 * One questionnaire key: its versions, the chosen version in words (default the one in use), and what
 * changed between two versions (default: the previous version to the chosen one). The compare form is a
 * plain GET form, so each comparison has its own address.
 */
export function QuestionnaireVersions({ keyName, version, compare }: { keyName: string; version?: number; compare?: number }) {
  const trpc = useTRPC();
  const versions = useQuery(trpc.intake.questionnaireVersions.queryOptions({ key: keyName }));
  if (versions.isPending) return <Loading label="Loading the versions…" />;
  if (versions.isError) return <QueryError error={versions.error} title="The versions could not be read." />;
  const vs = [...versions.data].sort((a, b) => b.version - a.version);
  if (vs.length === 0) return <p className="text-sm text-slate-600">No questionnaire by the key {keyName} in this mode.</p>;
  const shown = vs.find((v) => v.version === version) ?? vs.find((v) => v.status === 'approved') ?? vs[0];
  const from = vs.find((v) => v.version === compare) ?? vs.find((v) => v.version < shown.version);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <h1 className="text-2xl font-semibold break-words">{shown.title}</h1>
        <Link href={buildHref(keyName)} className="text-sm font-medium text-indigo-700 hover:underline">
          Build the next version from v{vs[0].version}
        </Link>
      </div>
      <VersionsTable keyName={keyName} versions={vs} selected={shown.version} />
      <section aria-labelledby="shown-heading" className={`${card} space-y-3`}>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <h2 id="shown-heading" className="text-lg font-semibold">Version {shown.version}</h2>
          <QuestionnaireStatusBadge status={shown.status} replacedBy={replacedBy(shown, vs)} />
          <ShortHash hash={shown.contentHash} />
          <span className="text-sm text-slate-600">created {formatDateTime(shown.createdAt)}</span>
        </div>
        {shown.approvalNote && <p className="text-sm break-words text-slate-700">Approval note: “{shown.approvalNote}”</p>}
        {shown.status === 'superseded' && (
          <p data-testid="superseded-note" className="text-sm text-slate-700">
            Never approved: {replacedBy(shown, vs) === undefined ? 'a newer version' : `version ${replacedBy(shown, vs)}`} was approved while it waited
            {shown.supersededAt ? ` (${formatDateTime(shown.supersededAt)})` : ''}, so it can no longer be approved. To use its content, build the next version from it.
          </p>
        )}
        <QuestionnairePrescribes version={shown} />
        <QuestionnairePreview doc={shown.document} />
      </section>
      {vs.length > 1 && (
        <section aria-labelledby="diff-heading" className={`${card} space-y-4`}>
          <h2 id="diff-heading" className="text-lg font-semibold">Compare versions</h2>
          <form method="get" className="flex flex-wrap items-end gap-3">
            <label className="text-sm font-medium text-slate-700">
              From
              <select name="compare" defaultValue={from?.version} className={select}>
                {vs.map((v) => (
                  <option key={v.id} value={v.version}>v{v.version} ({questionnaireStatusWords(v.status, replacedBy(v, vs))})</option>
                ))}
              </select>
            </label>
            <label className="text-sm font-medium text-slate-700">
              To
              <select name="version" defaultValue={shown.version} className={select}>
                {vs.map((v) => (
                  <option key={v.id} value={v.version}>v{v.version} ({questionnaireStatusWords(v.status, replacedBy(v, vs))})</option>
                ))}
              </select>
            </label>
            <button type="submit" className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500">Compare</button>
          </form>
          {from ? (
            <QuestionnaireDiffView before={from.document} after={shown.document} beforeLabel={`v${from.version}`} afterLabel={`v${shown.version}`} />
          ) : (
            <p className="text-sm text-slate-600">Version {shown.version} is the first; choose another version to compare.</p>
          )}
        </section>
      )}
    </div>
  );
}
