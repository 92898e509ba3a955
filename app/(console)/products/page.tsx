import { CatalogProductsManager } from '@/components/console/catalog/catalog-products-manager';
import { CatalogProtocolsManager } from '@/components/console/catalog/catalog-protocols-manager';
import { LIST_INPUT } from '@/components/console/catalog/catalog-types';
import { NoAccess } from '@/components/console/catalog/catalog-ui';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Products · Fulfillment Rail' };

export default async function ProductsPage() {
  const { me, mode } = await requireConsoleSession();
  const allowed = me.scopes.includes('catalog.manage');
  if (allowed) {
    await Promise.all([
      getQueryClient().prefetchQuery(trpcServer.products.listProducts.queryOptions(LIST_INPUT)),
      getQueryClient().prefetchQuery(trpcServer.protocols.listProtocols.queryOptions(LIST_INPUT)),
    ]);
  }
  return (
    <section className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Products</h1>
        <p className="text-sm text-slate-600">What this clinic prescribes in {mode}. Inactive products stay on record but are not offered for new orders.</p>
      </div>
      {allowed ? (
        <HydrateClient>
          <CatalogProductsManager />
          <div className="mt-8 space-y-4">
            <h2 id="protocols" className="scroll-mt-24 text-xl font-semibold">
              Protocols
            </h2>
            <p className="text-sm text-slate-600">Products prescribed together, each with its quantity, directions (sig) and refills.</p>
            <CatalogProtocolsManager />
          </div>
        </HydrateClient>
      ) : (
        <NoAccess what="manage the product catalog" role={me.user.role} />
      )}
    </section>
  );
}
