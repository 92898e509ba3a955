import { and, eq, sql, type SQL } from 'drizzle-orm';
import { events, orders, orderTransitions, type ActorKind, type OrderStatus } from '@/db/schema';
import { placeholders } from '@/server/db/prepared';
import { scoped, scopedStatement, setKeys, updateWith, type AlsoInsert, type AlsoUpdate, type Scope, type ScopedTable } from '@/server/db/scoped';
import type { Queryable, Tx } from '@/server/db/types';
import { newEvent } from '@/server/domain/events/emit';
import { rejectionEventReason } from './reason-codes';
import { orderNotices } from '@/server/domain/notices/milestones';
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
  // Back to pending_approval: the approval no longer covers the order as it stands (approval.ts).
  approved: ['submitting', 'rejected', 'pending_approval', 'cancelled'],
  submitting: ['submitted', 'rejected', 'pending_approval', 'cancelled'],
  submitted: ['accepted', 'rejected', 'cancelled'],
  accepted: ['shipped', 'rejected', 'cancelled'],
  shipped: ['delivered', 'cancelled'],
  delivered: [],
  rejected: ['approved', 'cancelled'],
  cancelled: [],
};

/** Statuses in which the pharmacy has (or may have) the order: a cancel must reach it too. */
export const DISPATCHED: readonly OrderStatus[] = ['submitting', 'submitted', 'accepted', 'shipped'];

const EVENT_FOR: Partial<Record<OrderStatus, 'order.routed' | 'order.submitted' | 'order.rejected' | 'order.shipped' | 'order.delivered' | 'order.cancelled'>> = {
  submitted: 'order.routed',
  accepted: 'order.submitted',
  rejected: 'order.rejected',
  shipped: 'order.shipped',
  delivered: 'order.delivered',
  cancelled: 'order.cancelled',
};

export interface Actor {
  kind: ActorKind;
  id: string | null;
}

export function conflict(row: Pick<OrderRow, 'status'>, action: string) {
  return errors.conflict(`The order is ${row.status}; it cannot be ${action} from that status.`, 'order_status_conflict');
}

/** The conflict of a move that found the order changed since `seen` was read: the status it has now, if another. */
export async function conflictNow(q: Queryable, scope: Scope, seen: OrderRow, action: string) {
  const current = (await scoped(q, scope).get(orders, seen.id)) ?? seen;
  if (current.status !== seen.status) return conflict(current, action);
  return errors.conflict(`The order changed while it was being ${action}; read it again and retry.`, 'order_status_conflict');
}

const lockStatement = scopedStatement((own, q) => q.select().from(orders).where(and(own(orders), eq(orders.id, sql.placeholder('id')))).for('update'));

/**
 * Locks the order row for the rest of the caller's transaction. A transaction that writes both an order
 * and its dispatch rounds takes this lock first: two that lock them in opposite orders deadlock (a cancel
 * job against a pharmacy callback did, and one of them failed after PostgreSQL's deadlock_timeout).
 */
export async function lockOrder(tx: Tx, scope: Scope, id: string): Promise<OrderRow | undefined> {
  const [row] = await scoped(tx, scope).run(lockStatement, { id });
  return row;
}

/** A further condition of the guarded UPDATE (`key` names its shape; its values are placeholders, filled from `values`). */
export interface MoveGuard {
  key: string;
  where: (own: (t: ScopedTable) => SQL) => SQL;
  values: Record<string, unknown>;
}

/** The order row's version, as a statement selects it: `xmin`, which every update of the row changes. */
export const orderVersion = sql<string>`${orders}.xmin::text`;

/** Makes a move require the order unchanged since it was read at `version` (`orderVersion`). */
export const unchangedSince = (version: string): MoveGuard => ({
  key: 'version',
  where: () => sql`${orders}.xmin = ${sql.placeholder('version')}::xid`,
  values: { version },
});

/**
 * Moves the order, as the caller last saw it, from one of `from` along `to` (one status, or several edges
 * walked in one go), with a timeline entry and an event per step (which queues its webhook deliveries), in
 * one UPDATE. Returns null, changing nothing, when the order is not in `from` or a step is not an edge of
 * the lifecycle graph. The UPDATE requires the status the caller saw, and `opts.round` (the dispatch round)
 * and `opts.guard` when given, so a caller may lock the order first (`lockOrder`) or pass what it expects
 * and read a null as "not as expected". `opts.firstRoutedAt` is recorded unless one already is; `opts.also`
 * rows (of other tables) and `opts.alsoUpdate` updates are written by the same statement, only when the
 * order moved.
 */
export async function transition(
  q: Queryable,
  scope: Scope,
  current: Pick<OrderRow, 'id' | 'status' | 'connectionId'>,
  from: readonly OrderStatus[],
  to: OrderStatus | readonly OrderStatus[],
  actor: Actor,
  opts: {
    set?: Partial<OrderRow>;
    reasonCode?: string | null;
    /** Free text for the last step's timeline entry (PHI: it goes nowhere else). */
    note?: string;
    round?: number;
    firstRoutedAt?: Date | null;
    guard?: MoveGuard;
    also?: AlsoInsert[];
    alsoUpdate?: AlsoUpdate[];
  } = {},
): Promise<OrderRow | null> {
  const path: readonly OrderStatus[] = typeof to === 'string' ? [to] : to;
  if (path.length === 0 || !from.includes(current.status)) return null;
  const steps = path.map((next, i) => ({ from: i === 0 ? current.status : path[i - 1], to: next }));
  if (steps.some((step) => !ORDER_GRAPH[step.from].includes(step.to))) return null;
  const at = now();
  const set: Record<string, unknown> = { ...opts.set, status: path[path.length - 1], updatedAt: at };
  // The reason belongs to where the walk ends (a rejection's code, say), not to the steps on the way.
  const last = steps.length - 1;
  const timeline = steps.map((step, i) => ({
    ...timelineEntry(current.id, step.from, step.to, actor, i === last ? (opts.reasonCode ?? null) : null, at),
    // Every row of one insert sets the same columns, so the note is on all of them (null but the last).
    ...(opts.note !== undefined ? { note: i === last ? opts.note : null } : {}),
  }));
  // The update changes the pharmacy only through `set`, so the events can name it before it runs.
  const connectionId = (opts.set?.connectionId ?? current.connectionId) as string | null;
  const emitted = steps.flatMap((step) => {
    const type = EVENT_FOR[step.to];
    if (type === 'order.rejected') {
      return [newEvent(type, { orderId: current.id, pharmacyConnectionId: connectionId, status: step.to, ...rejectionEventReason(opts.reasonCode ?? 'rejected') })];
    }
    // Integrations must hear of every cancel, even of an order no pharmacy ever held (its pharmacy is null).
    if (type === 'order.cancelled') return [newEvent(type, { orderId: current.id, pharmacyConnectionId: connectionId, status: step.to })];
    if (!type || !connectionId) return [];
    return [newEvent(type, { orderId: current.id, pharmacyConnectionId: connectionId, status: step.to })];
  });
  const notices = orderNotices(current.id, current.status, path, at);
  const [statement, alsoValues] = moveStatement(
    setKeys(set),
    opts.round !== undefined,
    opts.firstRoutedAt !== undefined,
    opts.guard,
    [
      { table: orderTransitions, rows: timeline },
      // Inserting the events queues their webhook deliveries (trigger `events_fan_out`).
      { table: events, rows: emitted },
      // The patient's notice of a milestone, once per order, milestone and channel (DESIGN decision 41); its row queues its send.
      ...(notices ? [notices] : []),
      ...(opts.also ?? []),
    ],
    opts.alsoUpdate ?? [],
  );
  const [row] = await scoped(q, scope).run(statement, {
    ...alsoValues,
    ...opts.guard?.values,
    ...Object.fromEntries(Object.entries(set).map(([k, v]) => [`set:${k}`, v])),
    id: current.id,
    from: current.status,
    round: opts.round,
    firstRoutedAt: opts.firstRoutedAt?.toISOString() ?? null,
  });
  return row ?? null;
}

/** The guarded UPDATE of `transition` with the rows it writes (`updateWith`), one rendered statement per shape. */
const moveStatement = (keys: string[], byRound: boolean, firstRouted: boolean, guard: MoveGuard | undefined, also: AlsoInsert[], alsoUpdate: AlsoUpdate[]) =>
  updateWith(
    `orders.move:${keys.join(',')}:${byRound}:${firstRouted}:${guard?.key ?? ''}`,
    (own, db) =>
      db
        .update(orders)
        .set({
          ...placeholders(keys, 'set:'),
          ...(firstRouted ? { firstRoutedAt: sql`coalesce(${orders.firstRoutedAt}, ${sql.placeholder('firstRoutedAt')}::timestamptz)` } : {}),
        })
        .where(
          and(
            own(orders),
            eq(orders.id, sql.placeholder('id')),
            eq(orders.status, sql.placeholder('from')),
            byRound ? eq(orders.dispatchRound, sql.placeholder('round')) : undefined,
            guard?.where(own),
          ),
        )
        .returning(),
    also,
    alsoUpdate,
  );

export const timelineEntry = (orderId: string, from: OrderStatus | null, to: OrderStatus, actor: Actor, reasonCode: string | null, at: Date) => ({
  id: newId('orderTransition'),
  orderId,
  fromStatus: from,
  toStatus: to,
  actorKind: actor.kind,
  actorId: actor.id,
  reasonCode,
  at,
});
