import Link from 'next/link';
import { loadApi } from '@/components/console/catalog-load';
import { Refused } from '@/components/console/catalog-ui';
import { OrderActions } from '@/components/console/order-actions';
import { approvalBlock } from '@/components/console/order-approval';
import { OrderFacts, OrderPatient, OrderPharmacy, OrderPrescriptions, OrderShipmentCard, OrderTimeline } from '@/components/console/order-detail';
import type { OrderDetail } from '@/components/console/order-types';
import { OrderStatusBadge } from '@/components/console/order-ui';
import type { Pharmacy } from '@/components/console/pharmacy-types';
import { requireConsoleSession } from '@/lib/console/session';

export const metadata = { title: 'Order · Fulfillment Rail' };

export default async function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { token, mode, me } = await requireConsoleSession();
  const { id } = await params;
  const auth = { token, mode };
  // PHI: the API writes this read to the patient's access log.
  const order = await loadApi<OrderDetail>(`/orders/${encodeURIComponent(id)}`, auth);
  const canWrite = me.scopes.includes('orders.write');
  const pharmacies =
    order.ok && order.data.status === 'rejected' && canWrite && me.scopes.includes('pharmacies.manage') ? await loadApi<Pharmacy[]>('/pharmacies', auth) : null;
  return (
    <section className="space-y-6">
      <Link href="/orders" className="text-sm text-indigo-700 hover:underline">← Orders</Link>
      {!order.ok ? (
        <Refused message={order.message} />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="font-mono text-2xl font-semibold">{order.data.id}</h1>
            <OrderStatusBadge status={order.data.status} />
            {order.data.priority === 'urgent' && <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">urgent</span>}
          </div>
          <OrderActions
            order={order.data}
            blockedReason={approvalBlock(me, order.data.patient ? (order.data.patient.address?.state ?? null) : undefined)}
            canWrite={canWrite}
            pharmacies={pharmacies?.ok ? pharmacies.data.filter((p) => p.status === 'enabled').map((p) => ({ id: p.id, name: p.name })) : null}
            token={token}
            mode={mode}
          />
          <div className="grid gap-6 lg:grid-cols-2">
            <OrderFacts order={order.data} />
            <OrderPatient order={order.data} readsPatients={me.scopes.includes('patients.read')} />
            <OrderPharmacy order={order.data} />
            <OrderShipmentCard order={order.data} />
          </div>
          <OrderPrescriptions order={order.data} />
          <OrderTimeline order={order.data} />
        </>
      )}
    </section>
  );
}
