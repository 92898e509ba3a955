import { OrderApprovalQueue, QUEUE_SIZE } from '@/components/console/orders/order-approval-queue';
import { NotForRole, OrderTabs } from '@/components/console/orders/order-ui';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Approval queue · Fulfillment Rail' };

export default async function ApprovalQueuePage() {
  const { mode, me } = await requireConsoleSession();
  const readsOrders = me.scopes.includes('orders.read');
  // The patient is PHI: only people who may read patients get it (and each read lands in the access log).
  const readsPatients = me.scopes.includes('patients.read');
  if (readsOrders) await getQueryClient().prefetchQuery(trpcServer.orders.approvalQueue.queryOptions({ limit: QUEUE_SIZE }));
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Orders</h1>
        <p className="text-sm text-slate-600">
          Orders in {mode} waiting for a licensed provider, oldest first. Approving one sends it to the pharmacy at once; declining cancels it.
          {readsPatients && ' Showing a patient here is a read of their record, and is logged.'}
        </p>
      </div>
      <OrderTabs active="approvals" />
      {readsOrders ? (
        <HydrateClient>
          <OrderApprovalQueue mode={mode} isProvider={me.user.role === 'provider'} readsPatients={readsPatients} />
        </HydrateClient>
      ) : (
        <NotForRole>Your role does not include reading orders, so the approval queue is not shown. Ask a clinic admin if you need it.</NotForRole>
      )}
    </section>
  );
}
