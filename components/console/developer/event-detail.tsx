'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/web/trpc/client';
import { CopyButton } from '../ui/copy-button';
import { EventFields } from './event-subjects';
import { formatDateTime } from '../ui/format';
import { Loading, QueryError } from '../ui/query-state';

export function EventDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const event = useQuery(trpc.events.eventDetail.queryOptions({ id }));
  const replay = useMutation(trpc.events.replayFromConsole.mutationOptions());
  if (event.isPending) return <Loading label="Loading the event…" />;
  if (event.isError) return <QueryError error={event.error} title="This event could not be read." />;
  const e = event.data;
  return (
    <section className="space-y-6">
      <h1 className="flex flex-wrap items-center gap-2 break-all font-mono text-xl font-semibold">
        {e.id} <CopyButton value={e.id} label="Copy event id" />
      </h1>
      <p className="text-sm text-slate-600">
        <span className="font-mono">{e.type}</span> · {formatDateTime(e.createdAt)}
      </p>
      <EventFields data={e.data} />
      <pre className="overflow-x-auto rounded-lg border border-slate-200 bg-white p-4 text-sm">{JSON.stringify(e.data, null, 2)}</pre>
      <button
        type="button"
        disabled={replay.isPending}
        onClick={() => replay.mutate({ id })}
        className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500 disabled:opacity-50"
      >
        {replay.isPending ? 'Replaying…' : 'Replay to subscribed endpoints'}
      </button>
      {replay.isError && <QueryError error={replay.error} title="The event could not be replayed." />}
      {replay.data && (
        <p role="status" className="text-sm text-slate-700">
          {replay.data.note ?? `Replayed to ${replay.data.replayedTo} endpoint(s).`}
        </p>
      )}
    </section>
  );
}
