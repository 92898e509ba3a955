import { eq } from 'drizzle-orm';
import { orders, orderTransitions, type ActorKind, type OrderStatus } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Tx } from '@/server/db/types';
import { emitEvent } from '@/server/domain/events/emit';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';

export type OrderRow = typeof orders.$inferSelect;

/**
 * DESIGN decision 8 as a graph: every status change the service makes is one of these edges, taken one
 * step at a time (a pharmacy that reports "delivered" for a submitted order walks accepted and shipped).
 */
export const ORDER_GRAPH: Record<OrderStatus, readonly OrderStatus[]> = {
  draft: ['draft', 'pending_approval', 'cancelled'],
  pending_approval: ['draft', 'pending_approval', 'approved', 'cancelled'],
  approved: ['submitting', 'rejected', 'cancelled'],
  submitting: ['submitted', 'rejected', 'cancelled'],
  submitted: ['accepted', 'rejected', 'cancelled'],
  accepted: ['shipped', 'rejected', 'cancelled'],
  shipped: ['delivered', 'cancelled'],
  delivered: [],
  rejected: ['approved', 'cancelled'],
  cancelled: [],
};

/** Statuses in which the pharmacy has (or may have) the order: a cancel must reach it too. */
export const DISPATCHED: readonly OrderStatus[] = ['submitting', 'submitted', 'accepted', 'shipped'];

const EVENT_FOR: Partial<Record<OrderStatus, 'order.routed' | 'order.submitted' | 'order.rejected' | 'order.shipped' | 'order.delivered'>> = {
  submitted: 'order.routed',
  accepted: 'order.submitted',
  rejected: 'order.rejected',
  shipped: 'order.shipped',
  delivered: 'order.delivered',
};

export interface Actor {
  kind: ActorKind;
  id: string | null;
}

export function conflict(row: OrderRow, action: string) {
  return errors.conflict(`The order is ${row.status}; it cannot be ${action} from that status.`, 'order_status_conflict');
}

/**
 * Moves the order from one of `from` to `to` in the caller's transaction, with its timeline entry and its
 * event. The row is locked first, so concurrent moves queue and each sees the other's result; returns null
 * when the order is not (or no longer) in `from`.
 */
export async function transition(
  tx: Tx,
  scope: Scope,
  orderId: string,
  from: readonly OrderStatus[],
  to: OrderStatus,
  actor: Actor,
  opts: { set?: Partial<OrderRow>; reasonCode?: string | null } = {},
): Promise<OrderRow | null> {
  const s = scoped(tx, scope);
  const [current] = await tx.select().from(orders).where(s.where(orders, eq(orders.id, orderId))).for('update');
  if (!current || !from.includes(current.status) || !ORDER_GRAPH[current.status].includes(to)) return null;
  const at = now();
  const [row] = await tx
    .update(orders)
    .set({ ...opts.set, status: to, updatedAt: at })
    .where(s.where(orders, eq(orders.id, orderId)))
    .returning();
  await recordTimeline(tx, scope, orderId, current.status, to, actor, opts.reasonCode ?? null, at);
  const type = EVENT_FOR[to];
  if (type && row.connectionId) {
    const data = { orderId, pharmacyConnectionId: row.connectionId, status: to };
    if (type === 'order.rejected') await emitEvent(tx, scope, type, { ...data, reasonCode: opts.reasonCode ?? 'rejected' });
    else await emitEvent(tx, scope, type, data);
  }
  return row;
}

export async function recordTimeline(tx: Tx, scope: Scope, orderId: string, from: OrderStatus | null, to: OrderStatus, actor: Actor, reasonCode: string | null, at = now()) {
  await scoped(tx, scope).insert(orderTransitions, { id: newId('orderTransition'), orderId, fromStatus: from, toStatus: to, actorKind: actor.kind, actorId: actor.id, reasonCode, at });
}
