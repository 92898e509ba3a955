import Link from 'next/link';
import { NoAccess } from '@/components/console/catalog/catalog-ui';
import { ExperimentsManager } from '@/components/console/experiments/experiments-manager';
import { readsFlowAnalytics, readsFlows } from '@/components/console/flows/flow-access';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Flow experiments · Fulfillment Rail' };

export default async function FlowExperimentsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { me } = await requireConsoleSession();
  const allowed = readsFlowAnalytics(me.scopes);
  const readsFlow = readsFlows(me.scopes);
  const flow = readsFlow ? await getQueryClient().fetchQuery(trpcServer.flows.get.queryOptions({ id })).catch(() => null) : null;
  if (allowed) {
    await Promise.all([
      getQueryClient().prefetchQuery(trpcServer.experiments.list.queryOptions({ id })),
      ...(readsFlow ? [getQueryClient().prefetchQuery(trpcServer.flows.versions.queryOptions({ id }))] : []),
    ]);
  }
  return (
    <section className="space-y-6">
      <div className="space-y-1">
        <Link href={`/flows/${id}`} className="text-sm text-indigo-700 underline">
          ← {flow?.name ?? 'Flow'}
        </Link>
        <h1 className="text-2xl font-semibold break-words">Experiments{flow ? `: ${flow.name}` : ''}</h1>
      </div>
      {allowed ? (
        <HydrateClient>
          <ExperimentsManager flowId={id} readsFlow={readsFlow} canManage={me.scopes.includes('flows.manage')} />
        </HydrateClient>
      ) : (
        <NoAccess what="run flow experiments" role={me.user.role} />
      )}
    </section>
  );
}
