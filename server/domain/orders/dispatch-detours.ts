import { eq } from 'drizzle-orm';
import { orderDispatches, type OrderStatus } from '@/db/schema';
import { enqueueJobs } from '@/server/db/outbox';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import type { PharmacyOrderState } from '@/server/integrations/pharmacies';
import { now } from '@/server/lib/clock';
import { acknowledgeStatement, type Acknowledgeable } from './acknowledgement-writes';
import { SYSTEM } from './actor';
import { conflictNow, lockOrder, transition, type Actor, type MoveGuard, type OrderRow } from './lifecycle';
import { PHARMACY_CANCEL_JOB } from './order-jobs';

// Where a dispatch round leaves the straight path of dispatch.ts, one function per turn, in the order they
// can happen: no pharmacy to start it at, a round the order moved past before its job ran, an
// acknowledgement the order was not waiting for.

/**
 * Step 1, no pharmacy qualifies: the order is `rejected` with `no_qualifying_pharmacy` (an approve records
 * its approval on the way), both steps or neither. Null: there is no round to send.
 */
export async function declineUnroutable(
  q: Queryable,
  scope: Scope,
  { order, unchanged }: { order: OrderRow; unchanged: MoveGuard },
  path: readonly OrderStatus[],
  actor: Actor,
  set: Partial<OrderRow>,
  routing: OrderRow['routing'],
): Promise<null> {
  // A savepoint when already in the metered transaction.
  await q.transaction(async (tx) => {
    const approved = path[0] === 'approved' ? await transition(tx, scope, order, [order.status], 'approved', actor, { set, guard: unchanged }) : order;
    const rejected =
      approved &&
      (await transition(tx, scope, approved, ['approved'], 'rejected', SYSTEM, {
        reasonCode: 'no_qualifying_pharmacy',
        set: { rejectionReasonCode: 'no_qualifying_pharmacy', routing },
        guard: approved === order ? unchanged : undefined,
      }));
    if (!rejected) throw await conflictNow(tx, scope, order, 'approved');
  });
  return null;
}

/**
 * Step 2, the job found the order moved past its pending round (a cancel, a withdrawn approval, a callback):
 * nothing is sent, and the round is closed. Acknowledged when a callback about this very round already moved
 * the order on (the pharmacy has it; our record of its acknowledgement was lost, and a later cancel must still
 * reach the pharmacy), else cancelled.
 */
export async function closeOvertakenRound(db: Db, scope: Scope, order: OrderRow, dispatch: typeof orderDispatches.$inferSelect): Promise<null> {
  const known = order.dispatchRound === dispatch.round && dispatch.pharmacyStatus !== null;
  await db
    .update(orderDispatches)
    .set(known ? { status: 'acknowledged', acknowledgedAt: now() } : { status: 'cancelled' })
    .where(scoped(db, scope).where(orderDispatches, eq(orderDispatches.id, dispatch.id), eq(orderDispatches.status, 'pending')));
  return null;
}

/** Step 3, an acknowledgement the order was not waiting for, recorded as such: the pharmacy may have to be told to cancel. */
export async function recordOtherwise(db: Db, scope: Scope, dispatch: Acknowledgeable, state: PharmacyOrderState): Promise<null> {
  return db.transaction(async (tx) => {
    const s = scoped(tx, scope);
    const order = await lockOrder(tx, scope, dispatch.orderId);
    const [acked] = await s.run(acknowledgeStatement, { id: dispatch.id, externalId: state.externalId, acknowledgedAt: now() });
    if (!acked) {
      // A cancel got to the pharmacy before this submit did, found nothing and closed the round: the
      // pharmacy has the order now, so it must be told again.
      const current = await s.get(orderDispatches, dispatch.id);
      if (current?.status === 'cancelled') await enqueueJobs(tx, scope, [{ kind: PHARMACY_CANCEL_JOB, payload: { dispatchId: dispatch.id } }]);
      return null;
    }
    // Cancelled while the pharmacy was receiving it, or a late answer for a round the order has moved past
    // (rejected and rerouted meanwhile): the pharmacy has an order it must not fill, so tell it to cancel.
    // (A callback of this round that already moved the order on leaves nothing to do.)
    if (order && (order.status === 'cancelled' || order.dispatchRound !== acked.round)) {
      await enqueueJobs(tx, scope, [{ kind: PHARMACY_CANCEL_JOB, payload: { dispatchId: dispatch.id } }]);
    }
    return null;
  });
}
