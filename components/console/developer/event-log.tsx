'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/web/trpc/client';
import type { RouterInputs } from '@/web/console/types';
import { TableScroll } from '../ui/data-table';
import { EventAbout, nameableIds } from './event-subjects';
import { useNames } from '../orders/order-data';
import { formatDateTime } from '../ui/format';
import { Loading, QueryError } from '../ui/query-state';

export type EventLogInput = RouterInputs['events']['eventLog'];

export function EventLog({ input }: { input: EventLogInput }) {
  const trpc = useTRPC();
  const types = useQuery(trpc.events.eventTypes.queryOptions({}));
  const page = useQuery(trpc.events.eventLog.queryOptions(input));
  const last = page.data?.data.at(-1);
  const names = useNames(nameableIds(page.data?.data ?? []));
  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-semibold">Events</h1>
      <form className="flex flex-wrap items-end gap-3 text-sm">
        <label className="font-medium text-slate-700">
          Type
          <select name="type" defaultValue={input.type ?? ''} className="mt-1 block rounded-md border border-slate-300 bg-white px-2 py-1.5">
            <option value="">All types</option>
            {types.data?.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <button className="rounded-md bg-indigo-600 px-3 py-1.5 font-semibold text-white hover:bg-indigo-500">Filter</button>
      </form>
      {page.isPending && <Loading label="Loading events…" />}
      {page.isError && <QueryError error={page.error} title="The event log could not be read." />}
      {page.data && (
        <TableScroll label="Events">
          <table className="w-full text-left text-sm">
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th className="px-4 py-2">Event</th>
                <th className="px-4 py-2">Type</th>
                <th className="px-4 py-2">About</th>
                <th className="px-4 py-2">Created</th>
              </tr>
            </thead>
            <tbody>
              {page.data.data.map((e) => (
                <tr key={e.id} className="border-t border-slate-100">
                  <td className="px-4 py-2 font-mono">
                    <Link className="text-indigo-700 hover:underline" href={`/events/${e.id}`}>
                      {e.id}
                    </Link>
                  </td>
                  <td className="px-4 py-2 font-mono">{e.type}</td>
                  <td data-testid="event-about" className="min-w-48 px-4 py-2">
                    <EventAbout data={e.data} names={names} />
                  </td>
                  <td className="whitespace-nowrap px-4 py-2">{formatDateTime(e.createdAt)}</td>
                </tr>
              ))}
              {page.data.data.length === 0 && (
                <tr>
                  <td colSpan={4} className="px-4 py-3 text-slate-500">
                    No events in this mode yet.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </TableScroll>
      )}
      {page.data?.has_more && last && (
        <Link className="text-sm text-indigo-700 hover:underline" href={`/events?${new URLSearchParams({ ...(input.type ? { type: input.type } : {}), starting_after: last.id })}`}>
          Older events →
        </Link>
      )}
    </section>
  );
}
