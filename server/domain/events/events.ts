import { eq } from 'drizzle-orm';
import { events, webhookEndpoints } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { enqueueReplays, subscribedEndpoints, type EventRow } from '@/server/domain/webhooks/deliveries';
import { errors } from '@/server/lib/errors';
import { isEventType } from './catalog';

/** The one public shape of an event: the API, the SSE stream and every webhook body use it. */
export function toEventDto(row: Pick<EventRow, 'id' | 'type' | 'data' | 'createdAt'>) {
  return { id: row.id, type: row.type, data: row.data, createdAt: row.createdAt.toISOString() };
}
export type EventDto = ReturnType<typeof toEventDto>;

/** The body of every webhook delivery of an event (and of what `npm run cli -- listen` forwards). */
export const webhookBody = (row: Pick<EventRow, 'id' | 'type' | 'data' | 'createdAt'>) => JSON.stringify(toEventDto(row));

export async function listEvents(db: Db, scope: Scope, q: { type?: string; limit: number; startingAfter?: string }) {
  if (q.type !== undefined && !isEventType(q.type)) {
    throw errors.validation('Unknown event type. GET /v1/developer/webhooks/events lists the types.', 'type', 'unknown_event_type');
  }
  const rows = await scoped(db, scope).list(events, {
    where: q.type ? eq(events.type, q.type) : undefined,
    limit: q.limit + 1,
    startingAfter: q.startingAfter,
    order: 'newest',
  });
  return { object: 'list' as const, data: rows.slice(0, q.limit).map(toEventDto), has_more: rows.length > q.limit };
}

export async function getEvent(db: Db, scope: Scope, id: string) {
  return toEventDto(await scoped(db, scope).require(events, id, 'event'));
}

/**
 * Re-delivers an event to every enabled endpoint subscribed to its type now, or to one endpoint. Each
 * replay is a new delivery with the same `webhook-id` (the event id), so receivers can dedupe it.
 */
export async function replayEvent(db: Db, scope: Scope, id: string, endpointId?: string) {
  return db.transaction(async (tx) => {
    const s = scoped(tx, scope);
    const event = await s.require(events, id, 'event');
    let targets = await subscribedEndpoints(tx, scope, event.type);
    if (endpointId !== undefined) {
      const endpoint = await s.require(webhookEndpoints, endpointId, 'webhook endpoint');
      if (endpoint.status !== 'enabled') return { replayedTo: 0, note: 'The endpoint is disabled; enable it to replay events to it.' };
      targets = targets.filter((t) => t.id === endpoint.id);
      if (targets.length === 0) return { replayedTo: 0, note: 'The endpoint is not subscribed to this event’s type; nothing was replayed.' };
    }
    if (targets.length === 0) return { replayedTo: 0, note: 'No enabled webhook endpoint is subscribed to this event’s type; nothing was replayed.' };
    return { replayedTo: await enqueueReplays(tx, scope, event, targets) };
  });
}
