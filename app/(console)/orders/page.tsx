import { loadApi } from '@/components/console/catalog-load';
import { Refused } from '@/components/console/catalog-ui';
import { OrderCreateForm } from '@/components/console/order-create-form';
import { OrderList } from '@/components/console/order-list';
import { isOrderStatus, ORDER_PAGE_SIZE, type Order } from '@/components/console/order-types';
import { OrderTabs } from '@/components/console/order-ui';
import type { Pharmacy } from '@/components/console/pharmacy-types';
import { requireConsoleSession } from '@/lib/console/session';

export const metadata = { title: 'Orders · Fulfillment Rail' };

export default async function OrdersPage({ searchParams }: { searchParams: Promise<{ status?: string | string[] }> }) {
  const { token, mode, me } = await requireConsoleSession();
  const auth = { token, mode };
  const sp = await searchParams;
  const asked = typeof sp.status === 'string' && sp.status ? sp.status : undefined;
  const status = isOrderStatus(asked) ? asked : undefined;
  const q = new URLSearchParams({ limit: String(ORDER_PAGE_SIZE) });
  if (asked) q.set('status', asked); // an unknown one is the API's to refuse, in its words
  const [orders, pharmacies] = await Promise.all([
    loadApi<Order[]>(`/orders?${q}`, auth),
    // Names for the pharmacy column, for those who may list pharmacies; others see the connection id.
    me.scopes.includes('pharmacies.manage') ? loadApi<Pharmacy[]>('/pharmacies', auth) : null,
  ]);
  const pharmacyNames = Object.fromEntries(pharmacies?.ok ? pharmacies.data.map((p) => [p.id, p.name]) : []);
  // The list's paging restarts when the filter changes or a new order arrives on top (e.g. one just created).
  const listKey = `${status ?? 'all'}:${orders.ok ? (orders.data[0]?.id ?? '') : ''}`;
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Orders</h1>
        <p className="text-sm text-slate-600">
          Prescription orders in {mode}, newest first. An order with a patient and nothing left to confirm waits for a provider&apos;s approval,
          then goes to the pharmacy routing picks.
        </p>
      </div>
      <OrderTabs active="all" />
      {me.scopes.includes('orders.write') && <OrderCreateForm token={token} mode={mode} />}
      {orders.ok ? (
        <OrderList key={listKey} orders={orders.data} status={status} pharmacyNames={pharmacyNames} token={token} mode={mode} />
      ) : (
        <Refused message={orders.message} />
      )}
    </section>
  );
}
