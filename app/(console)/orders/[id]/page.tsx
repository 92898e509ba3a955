import Link from 'next/link';
import { NotForRole } from '@/components/console/orders/order-ui';
import { OrderView } from '@/components/console/orders/order-view';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Order · Fulfillment Rail' };

export default async function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { me } = await requireConsoleSession();
  const { id } = await params;
  const has = (scope: string) => me.scopes.includes(scope);
  // PHI: the API writes this read to the patient's access log.
  if (has('orders.read')) await getQueryClient().prefetchQuery(trpcServer.orders.getOrder.queryOptions({ id }));
  return (
    <section className="space-y-6">
      <Link href="/orders" className="text-sm text-indigo-700 hover:underline">← Orders</Link>
      {has('orders.read') ? (
        <HydrateClient>
          <OrderView id={id} canWrite={has('orders.write')} isProvider={me.user.role === 'provider'} readsPatients={has('patients.read')} readsPharmacies={has('pharmacies.manage')} />
        </HydrateClient>
      ) : (
        <NotForRole>Your role does not include reading orders, so this order is not shown. Ask a clinic admin if you need it.</NotForRole>
      )}
    </section>
  );
}
