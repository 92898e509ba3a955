import Link from 'next/link';
import { loadApi } from '@/components/console/catalog-load';
import { Refused } from '@/components/console/catalog-ui';
import { approvalBlock } from '@/components/console/order-approval';
import { OrderApprovalQueue, type QueueEntry } from '@/components/console/order-approval-queue';
import type { Order, OrderDetail } from '@/components/console/order-types';
import { OrderTabs } from '@/components/console/order-ui';
import { requireConsoleSession } from '@/lib/console/session';

export const metadata = { title: 'Approval queue · Fulfillment Rail' };

// The queue reads each order's detail (patient and products), so it stays one modest page.
const QUEUE_SIZE = 50;

export default async function ApprovalQueuePage() {
  const { token, mode, me } = await requireConsoleSession();
  const auth = { token, mode };
  const pending = await loadApi<Order[]>(`/orders?${new URLSearchParams({ status: 'pending_approval', limit: String(QUEUE_SIZE) })}`, auth);
  // The patient is PHI: only people who may read patients get it (and each read lands in the access log).
  const readsPatients = me.scopes.includes('patients.read');
  const details = pending.ok && readsPatients ? await Promise.all(pending.data.map((o) => loadApi<OrderDetail>(`/orders/${o.id}`, auth))) : [];
  const entries: QueueEntry[] = pending.ok
    ? pending.data.map((order, i) => {
        const d = details[i];
        const detail = d?.ok ? d.data : null;
        const patient = detail?.patient ?? null;
        const state = detail ? (patient?.address?.state ?? null) : undefined;
        return {
          order,
          patient: patient && { name: `${patient.firstName} ${patient.lastName}`, dateOfBirth: patient.dateOfBirth, state: patient.address?.state ?? null },
          prescriptions: detail?.prescriptions ?? null,
          blockedReason: approvalBlock(me, state),
        };
      })
    : [];
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Orders</h1>
        <p className="text-sm text-slate-600">
          Orders in {mode} waiting for a licensed provider. Approving one sends it to the pharmacy at once.
          {readsPatients && ' Showing a patient here is a read of their record, and is logged.'}
        </p>
      </div>
      <OrderTabs active="approvals" />
      {pending.ok ? (
        <>
          <OrderApprovalQueue entries={entries} token={token} mode={mode} />
          {pending.data.length === QUEUE_SIZE && (
            <p className="text-sm text-slate-600">
              Showing the {QUEUE_SIZE} newest.{' '}
              <Link href="/orders?status=pending_approval" className="font-medium text-indigo-700 hover:underline">All orders pending approval</Link>
            </p>
          )}
        </>
      ) : (
        <Refused message={pending.message} />
      )}
    </section>
  );
}
