import { and, asc, count, eq, max, sql } from 'drizzle-orm';
import { orders, orderTransitions } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';

export interface ApprovalQueueSummary {
  waiting: number;
  oldest: { orderId: string; waitingSince: string; ageSeconds: number } | null;
}

/**
 * How many orders wait for a provider, and the one waiting longest. An order waits since it last entered
 * `pending_approval` (a lapsed approval sends it back to the end of nobody's queue, but its wait restarts),
 * or since its creation when no transition says so.
 */
export async function approvalQueueSummary(q: Queryable, scope: Scope, at: Date): Promise<ApprovalQueueSummary> {
  const pending = scoped(q, scope).where(orders, eq(orders.status, 'pending_approval'));
  const since = sql<Date | string>`coalesce(${max(orderTransitions.at)}, ${orders.createdAt})`;
  const [[total], [oldest]] = await Promise.all([
    q.select({ n: count() }).from(orders).where(pending),
    q
      .select({ id: orders.id, since })
      .from(orders)
      .leftJoin(orderTransitions, and(eq(orderTransitions.orderId, orders.id), eq(orderTransitions.toStatus, 'pending_approval')))
      .where(pending)
      .groupBy(orders.id, orders.createdAt)
      .orderBy(asc(since), asc(orders.id))
      .limit(1),
  ]);
  if (!oldest) return { waiting: Number(total?.n ?? 0), oldest: null };
  // An aggregate inside sql`` comes back as the driver's raw value: a string on node-postgres.
  const waitingSince = new Date(oldest.since);
  return {
    waiting: Number(total?.n ?? 0),
    oldest: { orderId: oldest.id, waitingSince: waitingSince.toISOString(), ageSeconds: Math.max(0, Math.floor((at.getTime() - waitingSince.getTime()) / 1000)) },
  };
}
