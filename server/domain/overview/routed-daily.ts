import { and, count, eq, gte, lt, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { orders, orderTransitions } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { currentPeriod } from '@/server/domain/developer/usage-counters';
import { addDays, fillDays, startOfUtcDay, type DayCount } from './days';

export interface DailySeries {
  from: string;
  to: string;
  total: number;
  days: DayCount[];
}

const series = (first: Date, end: Date, rows: { day: string; n: number | string }[]): DailySeries => {
  const days = fillDays(first, end, rows);
  return { from: first.toISOString(), to: end.toISOString(), total: days.reduce((sum, d) => sum + d.count, 0), days };
};

const dayOf = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
/** By position: drizzle may qualify the column in GROUP BY and not in the select list, which PostgreSQL refuses. */
const byFirstColumn = sql`1`;

/**
 * Orders of the caller's mode routed to a pharmacy per UTC day, over the `days` days ending today. Routed
 * means the pharmacy took the order (its first move to `submitted`, as `first_routed_at` records for live
 * orders); sandbox orders have no `first_routed_at`, so both modes read it from the timeline alike. A reroute
 * that reaches a second pharmacy does not count the order twice.
 */
export async function routedOrdersDaily(q: Queryable, scope: Scope, days: number, at: Date): Promise<DailySeries> {
  const end = addDays(startOfUtcDay(at), 1);
  const first = addDays(end, -days);
  const earlier = alias(orderTransitions, 'earlier');
  const day = dayOf(orderTransitions.at);
  const rows = await q
    .select({ day, n: count() })
    .from(orderTransitions)
    .where(
      scoped(q, scope).where(
        orderTransitions,
        eq(orderTransitions.toStatus, 'submitted'),
        gte(orderTransitions.at, first),
        lt(orderTransitions.at, end),
        notExists(
          q
            .select({ one: sql`1` })
            .from(earlier)
            .where(and(eq(earlier.orderId, orderTransitions.orderId), eq(earlier.toStatus, 'submitted'), lt(earlier.id, orderTransitions.id))),
        ),
      ),
    )
    .groupBy(byFirstColumn);
  return series(first, end, rows);
}

/**
 * The billable count of this billing period per UTC day, up to today: live orders by `first_routed_at`, the
 * very rows `countOrdersRouted` totals, so the chart and the usage figure agree whatever mode asks.
 */
export async function billableRoutedDaily(q: Queryable, tenantId: string, at: Date): Promise<DailySeries> {
  const { start, end: periodEnd } = currentPeriod(at);
  const end = addDays(startOfUtcDay(at), 1) < periodEnd ? addDays(startOfUtcDay(at), 1) : periodEnd;
  const day = dayOf(orders.firstRoutedAt);
  const rows = await q
    .select({ day, n: count() })
    .from(orders)
    .where(scoped(q, { tenantId, livemode: true }).where(orders, sql`${orders.livemode}`, gte(orders.firstRoutedAt, start), lt(orders.firstRoutedAt, end)))
    .groupBy(byFirstColumn);
  return series(start, end, rows);
}
