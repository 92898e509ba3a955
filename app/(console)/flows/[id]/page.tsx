import Link from 'next/link';
import { NoAccess } from '@/components/console/catalog/catalog-ui';
import { readsFlows } from '@/components/console/flows/flow-access';
import { FlowEditor } from '@/components/console/flows/flow-editor';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Flow · Fulfillment Rail' };

export default async function FlowPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { me } = await requireConsoleSession();
  const reads = readsFlows(me.scopes);
  const flow = reads ? await getQueryClient().fetchQuery(trpcServer.flows.get.queryOptions({ id })).catch(() => null) : null;
  if (reads) await getQueryClient().prefetchQuery(trpcServer.flows.versions.queryOptions({ id }));
  return (
    <section className="space-y-6">
      <div className="space-y-1">
        <Link href="/flows" className="text-sm text-indigo-700 underline">
          ← Flows
        </Link>
        <h1 className="text-2xl font-semibold break-words">{flow?.name ?? 'Flow'}</h1>
      </div>
      {reads ? (
        <HydrateClient>
          <FlowEditor flowId={id} canManage={me.scopes.includes('flows.manage')} isProvider={me.user.role === 'provider'} />
        </HydrateClient>
      ) : (
        <NoAccess what="read flows" role={me.user.role} />
      )}
    </section>
  );
}
