import { NoAccess } from '@/components/console/catalog/catalog-ui';
import { EmbedKeysManager } from '@/components/console/flows/embed-keys-manager';
import { FlowTabs } from '@/components/console/flows/flow-tabs';
import { publicUrl } from '@/web/console/public-url';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Embed keys · Fulfillment Rail' };

export default async function EmbedKeysPage({ searchParams }: { searchParams: Promise<{ flow?: string }> }) {
  const { me, mode } = await requireConsoleSession();
  const allowed = me.scopes.includes('flows.manage');
  if (allowed) await getQueryClient().prefetchQuery(trpcServer.embedKeys.listEmbedKeys.queryOptions({}));
  const { flow } = await searchParams;
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Embed keys</h1>
        <p className="text-sm text-slate-600">
          Public keys that put a flow on the clinic’s own site (a script tag) or its hosted page, in {mode}. A key answers only the origins listed here; revoking it takes
          every copy of its snippet offline.
        </p>
      </div>
      <FlowTabs active="keys" />
      {allowed ? (
        <HydrateClient>
          <EmbedKeysManager mode={mode} publicUrl={publicUrl()} presetFlowId={typeof flow === 'string' ? flow : undefined} />
        </HydrateClient>
      ) : (
        <NoAccess what="manage embed keys" role={me.user.role} />
      )}
    </section>
  );
}
