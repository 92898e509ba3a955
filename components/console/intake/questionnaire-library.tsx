'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/web/trpc/client';
import { card } from '../catalog/catalog-ui';
import { TableScroll } from '../ui/data-table';
import { formatDateTime } from '../ui/format';
import { QuestionnaireStatusBadge, replacedBy, ShortHash } from './intake-ui';
import { useNames } from '../orders/order-data';
import { Loading, QueryError } from '../ui/query-state';
import type { QuestionnaireVersion } from './questionnaire-types';

/** Versions grouped by key, keys in the order of their newest version (newest first). */
export function byKey(versions: readonly QuestionnaireVersion[]): [string, QuestionnaireVersion[]][] {
  const groups = new Map<string, QuestionnaireVersion[]>();
  for (const v of versions) groups.set(v.key, [...(groups.get(v.key) ?? []), v]);
  return [...groups.entries()].map(([k, vs]) => [k, [...vs].sort((a, b) => b.version - a.version)] as [string, QuestionnaireVersion[]]);
}

/** The builder, starting from the newest version of `key`. */
export const buildHref = (key: string) => `/intake/questionnaires/new?from=${encodeURIComponent(key)}`;

export const keyHref = (key: string, version?: number) => `/intake/questionnaires/${encodeURIComponent(key)}${version ? `?version=${version}` : ''}`;

/** Who approved a version, by name when the console can resolve it. */
export function Approver({ v, names }: { v: QuestionnaireVersion; names: ReturnType<typeof useNames> }) {
  if (!v.approvedBy) return <span className="text-slate-500">—</span>;
  const n = names.get(v.approvedBy);
  return (
    <span data-testid="approved-by" className="break-words">
      {n ? n.name : <code className="font-mono text-xs">{v.approvedBy}</code>} · {formatDateTime(v.approvedAt)}
    </span>
  );
}

/** The versions of one key as a table: version, state, origin, approver and date, content hash, created. */
export function VersionsTable({ keyName, versions, selected }: { keyName: string; versions: QuestionnaireVersion[]; selected?: number }) {
  const names = useNames(versions.map((v) => v.approvedBy));
  return (
    <TableScroll label={`Versions of ${keyName}`}>
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">Version</th>
            <th scope="col" className="px-3 py-2">State</th>
            <th scope="col" className="px-3 py-2">Origin</th>
            <th scope="col" className="px-3 py-2">Approved by</th>
            <th scope="col" className="px-3 py-2">Content hash</th>
            <th scope="col" className="px-3 py-2">Created</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {versions.map((v) => (
            <tr key={v.id} data-testid="version-row" data-version={v.version} aria-current={v.version === selected ? 'true' : undefined} className={v.version === selected ? 'bg-indigo-50' : undefined}>
              <td className="px-3 py-2 whitespace-nowrap">
                <Link href={keyHref(v.key, v.version)} className="font-medium text-indigo-700 hover:underline">
                  v{v.version}<span className="sr-only"> of {v.title}</span>
                </Link>
              </td>
              <td className="px-3 py-2"><QuestionnaireStatusBadge status={v.status} replacedBy={replacedBy(v, versions)} /></td>
              <td className="px-3 py-2">{v.origin === 'ai' ? 'AI draft' : 'staff'}</td>
              <td className="min-w-48 px-3 py-2"><Approver v={v} names={names} /></td>
              <td className="px-3 py-2"><ShortHash hash={v.contentHash} /></td>
              <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(v.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Every questionnaire of the clinic in this mode: one card per key with all its versions and their states. */
export function QuestionnaireLibrary({ mode }: { mode: string }) {
  const trpc = useTRPC();
  const versions = useQuery(trpc.intake.questionnaireVersions.queryOptions({}));
  if (versions.isPending) return <Loading label="Loading the questionnaires…" />;
  if (versions.isError) return <QueryError error={versions.error} title="The questionnaires could not be read." />;
  const groups = byKey(versions.data);
  if (groups.length === 0)
    return (
      <p className="text-sm text-slate-600">
        No questionnaires in {mode} yet.{' '}
        <Link href="/intake/questionnaires/new" className="font-medium text-indigo-700 hover:underline">
          Build one
        </Link>
        , publish one through the API (POST /v1/intake/questionnaires) or draft one with AI.
      </p>
    );
  return (
    <ul className="space-y-6">
      {groups.map(([key, vs]) => {
        const current = vs.find((v) => v.status === 'approved');
        const pending = vs.filter((v) => v.status === 'pending').length;
        return (
          <li key={key} data-testid="questionnaire-card" data-key={key} className={`${card} min-w-0 space-y-3`}>
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <h2 className="text-lg font-semibold break-words">
                <Link href={keyHref(key)} className="text-indigo-700 hover:underline">{(current ?? vs[0]).title}</Link>
              </h2>
              <code className="font-mono text-xs text-slate-500">{key}</code>
              <span className="text-sm text-slate-600 sm:ml-auto">
                {current ? `In use: v${current.version}` : 'None approved yet'}
                {pending > 0 && ` · ${pending} pending approval`}
              </span>
              <Link href={buildHref(key)} className="text-sm font-medium text-indigo-700 hover:underline">
                New version<span className="sr-only"> of {(current ?? vs[0]).title}</span>
              </Link>
            </div>
            <VersionsTable keyName={key} versions={vs} />
          </li>
        );
      })}
    </ul>
  );
}
