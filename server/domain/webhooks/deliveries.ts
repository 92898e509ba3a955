import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { events, webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { scoped, scopedStatement, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { enqueueJobs } from '@/server/db/outbox';
import { now } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type EventRow = typeof events.$inferSelect;

export const DELIVERY_JOB = 'webhook.deliver';
/** The spec's history limit per endpoint; older finished deliveries are pruned by the worker. */
export const DELIVERY_HISTORY = 50;

export function toDeliveryDto(row: DeliveryRow) {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    responseCode: row.responseCode,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt.toISOString(),
  };
}

const subscribedStatement = scopedStatement((own, q) =>
  q
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        own(webhookEndpoints),
        eq(webhookEndpoints.status, 'enabled'),
        or(sql`${webhookEndpoints.events} = '[]'::jsonb`, sql`${webhookEndpoints.events} ? ${sql.placeholder('type')}::text`),
      ),
    )
    .orderBy(asc(webhookEndpoints.id)),
);

/**
 * Enabled endpoints of the scope whose subscription covers `type`. (An appended event's own deliveries
 * are written by the database, trigger `events_fan_out`, with the same rule; this serves replays.)
 */
export async function subscribedEndpoints(q: Queryable, scope: Scope, type: string): Promise<EndpointRow[]> {
  return scoped(q, scope).run(subscribedStatement, { type });
}

/**
 * Replays an event: one delivery row and one outbox job per endpoint, in the caller's transaction. (An
 * event's first deliveries are the database's, trigger `events_fan_out`.)
 */
export async function enqueueReplays(tx: Queryable, scope: Scope, event: Pick<EventRow, 'id' | 'type'>, endpoints: EndpointRow[]) {
  const at = now();
  const deliveries = endpoints.map((endpoint) => ({
    id: newId('delivery'),
    endpointId: endpoint.id,
    eventId: event.id,
    eventType: event.type,
    trigger: 'replay' as const,
    status: 'pending' as const,
    createdAt: at,
    nextAttemptAt: at,
  }));
  await scoped(tx, scope).insertMany(webhookDeliveries, deliveries);
  await enqueueJobs(tx, scope, deliveries.map((d) => ({ kind: DELIVERY_JOB, payload: { deliveryId: d.id, endpointId: d.endpointId } })));
  return deliveries.length;
}

/** The newest delivery of each endpoint, for the list's `lastDelivery`. */
export async function lastDeliveries(q: Queryable, scope: Scope, endpointIds: string[]): Promise<Map<string, DeliveryRow>> {
  if (endpointIds.length === 0) return new Map();
  const rows = await q
    .selectDistinctOn([webhookDeliveries.endpointId])
    .from(webhookDeliveries)
    .where(scoped(q, scope).where(webhookDeliveries, inArray(webhookDeliveries.endpointId, endpointIds)))
    .orderBy(webhookDeliveries.endpointId, desc(webhookDeliveries.id));
  return new Map(rows.map((r) => [r.endpointId, r]));
}

export async function listDeliveries(q: Queryable, scope: Scope, endpointId: string) {
  const s = scoped(q, scope);
  await s.require(webhookEndpoints, endpointId, 'webhook endpoint');
  const rows = await s.list(webhookDeliveries, { where: eq(webhookDeliveries.endpointId, endpointId), limit: DELIVERY_HISTORY });
  return rows.map(toDeliveryDto);
}
