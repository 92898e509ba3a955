import { eq } from 'drizzle-orm';
import { orderDispatches, type OrderStatus, type Shipment } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Tx } from '@/server/db/types';
import type { PharmacyOrderState } from '@/server/integrations/pharmacies';
import { now } from '@/server/lib/clock';
import { PHARMACY } from './actor';
import { DISPATCHED, transition, type OrderRow } from './lifecycle';

const FORWARD: readonly OrderStatus[] = ['submitting', 'submitted', 'accepted', 'shipped', 'delivered'];
const TARGET: Record<PharmacyOrderState['status'], OrderStatus> = {
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
 * current status is a duplicate and an older one is stale, and neither changes anything.
 */
export async function applyPharmacyState(
  tx: Tx,
  scope: Scope,
  order: OrderRow,
  dispatchId: string,
  state: Pick<PharmacyOrderState, 'status' | 'reasonCode' | 'tracking' | 'estimatedDelivery'>,
): Promise<ApplyOutcome> {
  const actor = PHARMACY(order.connectionId ?? '');
  const target = TARGET[state.status];
  await tx.update(orderDispatches).set({ pharmacyStatus: state.status }).where(scoped(tx, scope).where(orderDispatches, eq(orderDispatches.id, dispatchId)));
  if (order.status === target) return 'duplicate';
  if (isTerminal(order.status)) return 'stale';

  if (target === 'rejected') {
    const moved = await transition(tx, scope, order.id, ['submitting', 'submitted', 'accepted'], 'rejected', actor, {
      reasonCode: state.reasonCode ?? 'rejected',
      set: { rejectionReasonCode: state.reasonCode ?? 'rejected' },
    });
    return moved ? 'applied' : 'stale';
  }
  if (target === 'cancelled') {
    const moved = await transition(tx, scope, order.id, DISPATCHED, 'cancelled', actor, { reasonCode: 'pharmacy_cancelled' });
    return moved ? 'applied' : 'stale';
  }
  let current = order;
  const from = FORWARD.indexOf(current.status);
  const to = FORWARD.indexOf(target);
  if (from < 0 || to <= from) return 'stale';
  for (const next of FORWARD.slice(from + 1, to + 1)) {
    const set = next === 'shipped' || next === 'delivered' ? { shipment: shipmentFrom(current, state, next === 'delivered') } : {};
    const moved = await transition(tx, scope, order.id, [current.status], next, actor, { set });
    if (!moved) return 'stale';
    current = moved;
  }
  return 'applied';
}
