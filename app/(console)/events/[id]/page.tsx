import { revalidatePath } from 'next/cache';
import { consoleGetEvent, consoleReplayEvent } from '@/server/console/events';
import { requireConsoleSession } from '@/lib/console/session';

export default async function EventPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ replayed?: string }> }) {
  const { me } = await requireConsoleSession();
  const { id } = await params;
  const { replayed } = await searchParams;
  const event = await consoleGetEvent(me, id);

  async function replay() {
    'use server';
    const { me: current } = await requireConsoleSession();
    const result = await consoleReplayEvent(current, id);
    revalidatePath(`/events/${id}`);
    const { redirect } = await import('next/navigation');
    redirect(`/events/${id}?replayed=${encodeURIComponent(result.note ?? `Replayed to ${result.replayedTo} endpoint(s).`)}`);
  }

  return (
    <section className="space-y-6">
      <h1 className="font-mono text-xl font-semibold">{event.id}</h1>
      <p className="text-sm text-slate-600">
        <span className="font-mono">{event.type}</span> · {new Date(event.createdAt).toLocaleString()}
      </p>
      <pre className="overflow-x-auto rounded-lg border border-slate-200 bg-white p-4 text-sm">{JSON.stringify(event.data, null, 2)}</pre>
      <form action={replay}>
        <button className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500">Replay to subscribed endpoints</button>
      </form>
      {replayed && <p role="status" className="text-sm text-slate-700">{replayed}</p>}
    </section>
  );
}
