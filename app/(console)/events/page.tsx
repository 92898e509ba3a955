import { EventLog } from '@/components/console/developer/event-log';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export default async function EventsPage({ searchParams }: { searchParams: Promise<{ type?: string; starting_after?: string }> }) {
  const { type, starting_after } = await searchParams;
  const input = { type: type || undefined, starting_after: starting_after || undefined, limit: 50 };
  await Promise.all([
    getQueryClient().prefetchQuery(trpcServer.events.eventLog.queryOptions(input)),
    getQueryClient().prefetchQuery(trpcServer.events.eventTypes.queryOptions({})),
  ]);
  return (
    <HydrateClient>
      <EventLog input={input} />
    </HydrateClient>
  );
}
