import { LIST_INPUT } from '@/components/console/catalog/catalog-types';
import { NoAccess } from '@/components/console/catalog/catalog-ui';
import { RoutingWorkbench } from '@/components/console/pharmacies/routing-workbench';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';
import { US_STATES } from '@/server/lib/us-states';

export const metadata = { title: 'Routing · Fulfillment Rail' };

export default async function RoutingPage() {
  const { me, mode } = await requireConsoleSession();
  // The policy and its pharmacies need pharmacies.manage; the preview reads the catalog (catalog.manage or orders.write).
  const allowed = me.scopes.includes('pharmacies.manage') && (me.scopes.includes('catalog.manage') || me.scopes.includes('orders.write'));
  const canReadPatients = me.scopes.includes('patients.read');
  if (allowed) {
    const qc = getQueryClient();
    await Promise.all([
      qc.prefetchQuery(trpcServer.pharmacies.getRoutingPolicy.queryOptions({})),
      qc.prefetchQuery(trpcServer.pharmacies.listPharmacies.queryOptions(LIST_INPUT)),
      qc.prefetchQuery(trpcServer.products.listProducts.queryOptions(LIST_INPUT)),
    ]);
  }
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Routing</h1>
        <p className="text-sm text-slate-600">Which pharmacy fills each line of a {mode} order: only enabled pharmacies with an approved catalog that prices the product qualify.</p>
      </div>
      {allowed ? (
        <HydrateClient>
          <RoutingWorkbench usStates={US_STATES} canReadPatients={canReadPatients} />
        </HydrateClient>
      ) : (
        <NoAccess what="change routing" role={me.user.role} />
      )}
    </section>
  );
}
