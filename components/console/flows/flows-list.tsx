'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/web/trpc/client';
import { formatDateTime } from '../ui/format';
import { Loading, QueryError } from '../ui/query-state';
import { FlowStatusBadge } from './flow-status';

/** The mode's flows, newest first: what patients see (active version), what waits for a provider, and links. */
export function FlowsList({ mode, isProvider }: { mode: string; isProvider: boolean }) {
  const trpc = useTRPC();
  const flows = useQuery(trpc.flows.list.queryOptions({}));
  if (flows.isPending) return <Loading label="Loading flows…" />;
  if (flows.isError) return <QueryError error={flows.error} title="The flows could not be read." />;
  if (flows.data.length === 0) return <p className="text-sm text-slate-500">No flows in {mode} yet.</p>;
  return (
    <div role="region" aria-label="Flows" tabIndex={0} className="relative max-w-full overflow-x-auto rounded-lg border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-indigo-600">
      <table className="min-w-full text-left text-sm" data-testid="flows-table">
        <caption className="sr-only">Flows, newest first</caption>
        <thead className="bg-slate-50 text-xs text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-4 py-2">Flow</th>
            <th scope="col" className="px-4 py-2">Status</th>
            <th scope="col" className="px-4 py-2">Live version</th>
            <th scope="col" className="px-4 py-2">Waiting for a provider</th>
            <th scope="col" className="px-4 py-2">Embed keys</th>
            <th scope="col" className="px-4 py-2">Updated</th>
            <th scope="col" className="px-4 py-2">
              <span className="sr-only">Links</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {flows.data.map((f) => (
            <tr key={f.id} data-testid="flow-row">
              <td className="px-4 py-2">
                <Link href={`/flows/${f.id}`} className="font-medium break-words text-indigo-700 underline">
                  {f.name}
                </Link>
                {f.origin === 'ai' && <span className="ml-2 rounded bg-violet-100 px-1.5 py-0.5 text-xs text-violet-800">AI draft</span>}
              </td>
              <td className="px-4 py-2">
                <FlowStatusBadge status={f.status} />
              </td>
              <td className="px-4 py-2 whitespace-nowrap">{f.activeVersion ? `Version ${f.activeVersion.number}` : 'Not published'}</td>
              <td className="px-4 py-2 whitespace-nowrap">
                {f.pendingVersion ? (
                  <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">{isProvider ? 'Needs your approval' : `Version ${f.pendingVersion.number}`}</span>
                ) : (
                  '—'
                )}
              </td>
              <td className="px-4 py-2">{f.embedKeys.length}</td>
              <td className="px-4 py-2 whitespace-nowrap">{formatDateTime(f.updatedAt)}</td>
              <td className="px-4 py-2 whitespace-nowrap">
                <Link href={`/flows/${f.id}/analytics`} className="text-indigo-700 underline">
                  Analytics<span className="sr-only"> of {f.name}</span>
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
