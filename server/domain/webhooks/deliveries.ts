import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { events, webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { scoped, scopedStatement, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { enqueueJobs, jobRow } from '@/server/jobs/queue';
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

const subscribedToAnyStatement = scopedStatement((own, q) =>
  q
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        own(webhookEndpoints),
        eq(webhookEndpoints.status, 'enabled'),
        or(sql`${webhookEndpoints.events} = '[]'::jsonb`, sql`${webhookEndpoints.events} ?| ${sql.placeholder('types')}::text[]`),
      ),
    )
    .orderBy(asc(webhookEndpoints.id)),
);

/** Enabled endpoints of the scope subscribed to at least one of `types` (an empty list covers every type). */
export async function subscribedToAny(q: Queryable, scope: Scope, types: string[]): Promise<EndpointRow[]> {
  return scoped(q, scope).run(subscribedToAnyStatement, { types });
}

/** Enabled endpoints of the scope whose subscription covers `type`. */
export const subscribedEndpoints = (q: Queryable, scope: Scope, type: string) => subscribedToAny(q, scope, [type]);

const covers = (endpoint: EndpointRow, type: string) => endpoint.events.length === 0 || endpoint.events.includes(type);

/**
 * The delivery rows and their outbox jobs for events, one per enabled endpoint (of `endpoints`) whose
 * subscription covers the event's type, for a caller that writes them in a statement of its own.
 */
export function deliveryRows(events: Pick<EventRow, 'id' | 'type'>[], endpoints: EndpointRow[], trigger: 'event' | 'replay', at = now()) {
  const deliveries = events.flatMap((event) =>
    endpoints
      .filter((endpoint) => covers(endpoint, event.type))
      .map((endpoint) => ({
        id: newId('delivery'),
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        trigger,
        status: 'pending' as const,
        createdAt: at,
        nextAttemptAt: at,
      })),
  );
  const jobs = deliveries.map((d) => jobRow({ kind: DELIVERY_JOB, payload: { deliveryId: d.id, endpointId: d.endpointId } }, at));
  return { deliveries, jobs };
}

/** One delivery row and one outbox job per endpoint, in the caller's transaction. */
export async function enqueueDeliveries(
  tx: Queryable,
  scope: Scope,
  event: Pick<EventRow, 'id' | 'type'>,
  endpoints: EndpointRow[],
  trigger: 'event' | 'replay',
) {
  const { deliveries, jobs } = deliveryRows([event], endpoints, trigger);
  await scoped(tx, scope).insertMany(webhookDeliveries, deliveries);
  await enqueueJobs(tx, scope, jobs);
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
