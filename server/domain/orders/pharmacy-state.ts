import { eq } from 'drizzle-orm';
import { orderDispatches, type OrderStatus, type Shipment } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Tx } from '@/server/db/types';
import type { PharmacyOrderState } from '@/server/integrations/pharmacies';
import { now } from '@/server/lib/clock';
import { PHARMACY } from './actor';
import { DISPATCHED, transition, type OrderRow } from './lifecycle';
import { holdOf, noteHold } from './pharmacy-holds';

const FORWARD: readonly OrderStatus[] = ['submitting', 'submitted', 'accepted', 'shipped', 'delivered'];
export const TARGET: Record<PharmacyOrderState['status'], OrderStatus> = {
  received: 'submitted',
  accepted: 'accepted',
  shipped: 'shipped',
  delivered: 'delivered',
  rejected: 'rejected',
  cancelled: 'cancelled',
};
const TERMINAL: readonly OrderStatus[] = ['delivered', 'rejected', 'cancelled'];
export const isTerminal = (s: OrderStatus) => TERMINAL.includes(s);

export type ApplyOutcome = 'applied' | 'duplicate' | 'stale';

function shipmentFrom(order: OrderRow, state: Pick<PharmacyOrderState, 'tracking' | 'estimatedDelivery'>, delivered: boolean): Shipment | null {
  const prior = order.shipment;
  const tracking = state.tracking;
  if (!tracking && !prior) return null;
  const at = now().toISOString();
  return {
    carrier: tracking?.carrier ?? prior!.carrier,
    trackingNumber: tracking?.number ?? prior!.trackingNumber,
    trackingUrl: tracking?.url ?? prior?.trackingUrl ?? null,
    estimatedDelivery: state.estimatedDelivery ?? prior?.estimatedDelivery ?? null,
    shippedAt: prior?.shippedAt ?? at,
    deliveredAt: delivered ? (prior?.deliveredAt ?? at) : (prior?.deliveredAt ?? null),
  };
}

/**
 * Applies what a pharmacy reports (by callback or by lookup) to the order, in the caller's transaction.
 * Statuses only move forward, one edge of the lifecycle at a time with an event each; a report of the
 * current status is a duplicate and an older one is stale, and neither changes anything, unless it sets or
 * lifts a hold (pharmacy-holds.ts), which is noted on the timeline.
 */
export async function applyPharmacyState(
  tx: Tx,
  scope: Scope,
  order: OrderRow,
  dispatch: { id: string; pharmacyStatus: string | null; pharmacyHold: string | null },
  state: Pick<PharmacyOrderState, 'status' | 'reasonCode' | 'tracking' | 'estimatedDelivery'>,
): Promise<ApplyOutcome> {
  const actor = PHARMACY(order.connectionId ?? '');
  const target = TARGET[state.status];
  const hold = holdOf(state);
  const holdChanged = hold !== dispatch.pharmacyHold;
  if (dispatch.pharmacyStatus !== state.status || holdChanged) {
    await tx
      .update(orderDispatches)
      .set({ pharmacyStatus: state.status, pharmacyHold: hold })
      .where(scoped(tx, scope).where(orderDispatches, eq(orderDispatches.id, dispatch.id)));
  }
  if (order.status === target) {
    // The same status with a new hold (or its release) changes the order's story, not its status.
    if (!holdChanged) return 'duplicate';
    await noteHold(tx, scope, order, hold);
    return 'applied';
  }
  if (isTerminal(order.status)) return 'stale';

  if (target === 'rejected') {
    const moved = await transition(tx, scope, order, ['submitting', 'submitted', 'accepted'], 'rejected', actor, {
      reasonCode: state.reasonCode ?? 'rejected',
      set: { rejectionReasonCode: state.reasonCode ?? 'rejected' },
    });
    return moved ? 'applied' : 'stale';
  }
  if (target === 'cancelled') {
    const moved = await transition(tx, scope, order, DISPATCHED, 'cancelled', actor, { reasonCode: 'pharmacy_cancelled' });
    return moved ? 'applied' : 'stale';
  }
  const from = FORWARD.indexOf(order.status);
  const to = FORWARD.indexOf(target);
  if (from < 0 || to <= from) return 'stale';
  // A pharmacy that reports "delivered" for a submitted order walks accepted and shipped on the way.
  const path = FORWARD.slice(from + 1, to + 1);
  const set = path.includes('shipped') || path.includes('delivered') ? { shipment: shipmentFrom(order, state, target === 'delivered') } : {};
  const moved = await transition(tx, scope, order, [order.status], path, actor, { set });
  if (!moved) return 'stale';
  // A hold that comes with the move is noted after it; a lifted one needs no note, the move says so.
  if (hold) await noteHold(tx, scope, moved, hold);
  return 'applied';
}
