import Link from 'next/link';
import { EVENT_TYPES } from '@/server/domain/events/catalog';
import { consoleListEvents } from '@/server/console/events';
import { requireConsoleSession } from '@/lib/console/session';

export default async function EventsPage({ searchParams }: { searchParams: Promise<{ type?: string; starting_after?: string }> }) {
  const { me } = await requireConsoleSession();
  const { type, starting_after } = await searchParams;
  const page = await consoleListEvents(me, { type: type || undefined, startingAfter: starting_after });
  const last = page.data[page.data.length - 1];
  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-semibold">Events</h1>
      <form className="flex items-end gap-3 text-sm">
        <label className="font-medium text-slate-700">
          Type
          <select name="type" defaultValue={type ?? ''} className="mt-1 block rounded-md border border-slate-300 px-2 py-1.5">
            <option value="">All types</option>
            {EVENT_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <button className="rounded-md bg-indigo-600 px-3 py-1.5 font-semibold text-white">Filter</button>
      </form>
      <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm">
        <thead className="text-xs uppercase text-slate-500">
          <tr><th className="px-4 py-2">Event</th><th>Type</th><th>Created</th></tr>
        </thead>
        <tbody>
          {page.data.map((e) => (
            <tr key={e.id} className="border-t border-slate-100">
              <td className="px-4 py-2 font-mono"><Link className="text-indigo-700 hover:underline" href={`/events/${e.id}`}>{e.id}</Link></td>
              <td className="font-mono">{e.type}</td>
              <td>{new Date(e.createdAt).toLocaleString()}</td>
            </tr>
          ))}
          {page.data.length === 0 && <tr><td colSpan={3} className="px-4 py-3 text-slate-500">No events in {me.mode} yet.</td></tr>}
        </tbody>
      </table>
      {page.has_more && last && (
        <Link className="text-sm text-indigo-700 hover:underline" href={`/events?${new URLSearchParams({ ...(type ? { type } : {}), starting_after: last.id })}`}>
          Older events →
        </Link>
      )}
    </section>
  );
}
