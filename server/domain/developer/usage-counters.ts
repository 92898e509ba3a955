import { and, count, eq, gte, lt } from 'drizzle-orm';
import { events, webhookEndpoints } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';

/** The billing period: the current calendar month in UTC (DESIGN decision 13). */
export function currentPeriod(at: Date = now()) {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start, end };
}

/** Usage field `enabledWebhookEndpoints`. */
export async function countEnabledWebhookEndpoints(q: Queryable, scope: Scope): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(scoped(q, scope).where(webhookEndpoints, eq(webhookEndpoints.status, 'enabled')));
  return Number(row?.n ?? 0);
}

/** Usage field `eventsThisPeriod`: events appended to the log this calendar month. */
export async function countEventsThisPeriod(q: Queryable, scope: Scope, at: Date = now()): Promise<number> {
  const { start, end } = currentPeriod(at);
  const [row] = await q
    .select({ n: count() })
    .from(events)
    .where(scoped(q, scope).where(events, and(gte(events.createdAt, start), lt(events.createdAt, end))));
  return Number(row?.n ?? 0);
}
