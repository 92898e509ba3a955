import { OrderCreateForm } from '@/components/console/orders/order-create-form';
import { OrderList } from '@/components/console/orders/order-list';
import { isOrderStatus, ORDER_PAGE_SIZE } from '@/components/console/orders/order-types';
import { NotForRole, OrderTabs } from '@/components/console/orders/order-ui';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Orders · Fulfillment Rail' };

export default async function OrdersPage({ searchParams }: { searchParams: Promise<{ status?: string | string[] }> }) {
  const { mode, me } = await requireConsoleSession();
  const sp = await searchParams;
  const asked = typeof sp.status === 'string' && sp.status ? sp.status : undefined;
  const status = isOrderStatus(asked) ? asked : undefined;
  const readsOrders = me.scopes.includes('orders.read');
  const readsPharmacies = me.scopes.includes('pharmacies.manage');
  if (readsOrders) {
    await Promise.all([
      getQueryClient().prefetchQuery(trpcServer.orders.ordersWithNames.queryOptions({ status, limit: ORDER_PAGE_SIZE })),
      // Names for the pharmacy column, for those who may list pharmacies; others see the connection id.
      readsPharmacies ? getQueryClient().prefetchQuery(trpcServer.pharmacies.listPharmacies.queryOptions({})) : null,
    ]);
  }
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
      {!readsOrders ? (
        <NotForRole>Your role does not include reading orders, so none are shown here. Ask a clinic admin if you need them.</NotForRole>
      ) : (
        <HydrateClient>
          {asked && !status && <NotForRole>There is no order status called “{asked}”; showing every order.</NotForRole>}
          {me.scopes.includes('orders.write') && <OrderCreateForm mode={mode} readsPatients={me.scopes.includes('patients.read')} />}
          <OrderList key={status ?? 'all'} status={status} mode={mode} readsPatients={me.scopes.includes('patients.read')} readsPharmacies={readsPharmacies} />
        </HydrateClient>
      )}
    </section>
  );
}
