import { count, gte, lt } from 'drizzle-orm';
import { ORDER_STATUSES, orders, type OrderStatus } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';

export type StatusCounts = Record<OrderStatus, number> & { total: number };

/** Orders of the scope created in [from, to), counted by the status each is in now. */
export async function countOrdersByStatus(q: Queryable, scope: Scope, from: Date, to: Date): Promise<StatusCounts> {
  const rows = await q
    .select({ status: orders.status, n: count() })
    .from(orders)
    .where(scoped(q, scope).where(orders, gte(orders.createdAt, from), lt(orders.createdAt, to)))
    .groupBy(orders.status);
  const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  for (const r of rows) counts[r.status] = Number(r.n);
  return { ...counts, total: rows.reduce((sum, r) => sum + Number(r.n), 0) };
}
