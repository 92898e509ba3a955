import Link from 'next/link';
import { NoAccess } from '@/components/console/catalog/catalog-ui';
import { readsFlowAnalytics, readsFlows } from '@/components/console/flows/flow-access';
import { rangeOf } from '@/components/console/flows/analytics-range';
import { FlowAnalytics } from '@/components/console/flows/flow-analytics';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Flow analytics · Fulfillment Rail' };

const DAYS = 30;

export default async function FlowAnalyticsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { me } = await requireConsoleSession();
  const allowed = readsFlowAnalytics(me.scopes);
  const flow = readsFlows(me.scopes) ? await getQueryClient().fetchQuery(trpcServer.flows.get.queryOptions({ id })).catch(() => null) : null;
  if (allowed) {
    const { from, to } = rangeOf(DAYS);
    await Promise.all([
      getQueryClient().prefetchQuery(trpcServer.flowAnalytics.stats.queryOptions({ id, from, to })),
      getQueryClient().prefetchQuery(trpcServer.flowAnalytics.daily.queryOptions({ flowId: id, from, to })),
      getQueryClient().prefetchQuery(trpcServer.flows.versions.queryOptions({ id })),
    ]);
  }
  return (
    <section className="space-y-6">
      <div className="space-y-1">
        <Link href={`/flows/${id}`} className="text-sm text-indigo-700 underline">
          ← {flow?.name ?? 'Flow'}
        </Link>
        <h1 className="text-2xl font-semibold break-words">Analytics{flow ? `: ${flow.name}` : ''}</h1>
        <Link href={`/flows/${id}/experiments`} className="text-sm text-indigo-700 underline">
          Experiments: A/B tests of this flow&apos;s presentation
        </Link>
      </div>
      {allowed ? (
        <HydrateClient>
          <FlowAnalytics flowId={id} initialDays={DAYS} />
        </HydrateClient>
      ) : (
        <NoAccess what="read flow analytics" role={me.user.role} />
      )}
    </section>
  );
}
