import { EventDetail } from '@/components/console/developer/event-detail';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export default async function EventPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await getQueryClient().prefetchQuery(trpcServer.events.eventDetail.queryOptions({ id }));
  return (
    <HydrateClient>
      <EventDetail id={id} />
    </HydrateClient>
  );
}
