import { loadApi } from '@/components/console/catalog-load';
import { CatalogProductsManager } from '@/components/console/catalog-products-manager';
import { CatalogProtocolsManager } from '@/components/console/catalog-protocols-manager';
import type { Product, Protocol } from '@/components/console/catalog-types';
import { Refused } from '@/components/console/catalog-ui';
import { requireConsoleSession } from '@/lib/console/session';

export const metadata = { title: 'Products · Fulfillment Rail' };

export default async function ProductsPage() {
  const { token, mode } = await requireConsoleSession();
  const auth = { token, mode };
  const [products, protocols] = await Promise.all([loadApi<Product[]>('/products', auth), loadApi<Protocol[]>('/protocols', auth)]);
  return (
    <section className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Products</h1>
        <p className="text-sm text-slate-600">What this clinic prescribes in {mode}. Inactive products stay on record but are not offered for new orders.</p>
      </div>
      {products.ok ? <CatalogProductsManager products={products.data} token={token} mode={mode} /> : <Refused message={products.message} />}
      <div className="space-y-4">
        <h2 className="text-xl font-semibold">Protocols</h2>
        <p className="text-sm text-slate-600">Products prescribed together, each with its quantity, directions (sig) and refills.</p>
        {protocols.ok ? (
          <CatalogProtocolsManager protocols={protocols.data} products={products.ok ? products.data : []} token={token} mode={mode} />
        ) : (
          <Refused message={protocols.message} />
        )}
      </div>
    </section>
  );
}
