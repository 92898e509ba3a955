import { eq } from 'drizzle-orm';
import { events, webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { webhookBody } from '@/server/domain/events/events';
import { now } from '@/server/lib/clock';
import { metrics } from '@/server/lib/metrics';
import type { DeliveryRow } from './deliveries';
import type { DeliveryOptions } from './options';
import { nextAttemptDelay } from './retry';
import { sendSigned } from './send';

/** What the worker should do with the job after one attempt. */
export type AttemptOutcome = { kind: 'done' } | { kind: 'retry'; at: Date; error: string | null };

/**
 * One attempt of one delivery. Safe to run again after a crash at any point: a finished delivery is
 * left alone, and an attempt whose result was not recorded is simply made again (at-least-once).
 */
export async function attemptDelivery(db: Db, scope: Scope, deliveryId: string, opts: DeliveryOptions): Promise<AttemptOutcome> {
  const s = scoped(db, scope);
  // One round trip for the delivery, its endpoint and its event: this runs once per attempt.
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: events })
    .from(webhookDeliveries)
    .leftJoin(webhookEndpoints, s.where(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId)))
    .leftJoin(events, s.where(events, eq(events.id, webhookDeliveries.eventId)))
    .where(s.where(webhookDeliveries, eq(webhookDeliveries.id, deliveryId)))
    .limit(1);
  const { delivery, endpoint, event } = row ?? {};
  if (!delivery || !endpoint || delivery.status === 'delivered' || delivery.status === 'dead') return { kind: 'done' };
  const record = (set: Partial<DeliveryRow>) => s.update(webhookDeliveries, delivery.id, set);

  if (endpoint.status !== 'enabled') {
    await record({ status: 'dead', lastError: 'The endpoint was disabled before this delivery; replay the event after enabling it.' });
    return { kind: 'done' };
  }
  // The schedule's first entry is the delay before the first attempt (0 by default).
  const firstDue = delivery.createdAt.getTime() + opts.schedule[0];
  if (delivery.attempts === 0 && firstDue > now().getTime()) return { kind: 'retry', at: new Date(firstDue), error: null };
  if (!event) {
    await record({ status: 'dead', lastError: 'The event is past its retention period.' });
    return { kind: 'done' };
  }

  const result = await sendSigned(
    { url: endpoint.url, secret: endpoint.secret, eventId: event.id, body: webhookBody(event) },
    { timeoutMs: opts.timeoutMs, policy: opts.policy },
  );
  const at = now();
  const attempts = delivery.attempts + 1;
  const base = { attempts, responseCode: result.responseCode, lastError: result.error, lastAttemptAt: at, nextAttemptAt: at };
  const outcome = (o: 'delivered' | 'retry' | 'dead' | 'gone') => metrics().webhookDeliveries.inc({ outcome: o });
  if (result.ok) {
    await record({ ...base, status: 'delivered', deliveredAt: at });
    outcome('delivered');
    return { kind: 'done' };
  }
  if (result.gone) {
    // 410 Gone: the receiver says the URL is retired for good; stop sending anything there.
    await db.transaction(async (tx) => {
      await scoped(tx, scope).update(webhookEndpoints, endpoint.id, { status: 'disabled', updatedAt: at });
      await scoped(tx, scope).update(webhookDeliveries, delivery.id, { ...base, status: 'dead', lastError: 'HTTP 410 Gone: the endpoint was disabled' });
    });
    outcome('gone');
    return { kind: 'done' };
  }
  const delay = nextAttemptDelay(opts.schedule, attempts, result.retryAfterMs);
  if (delay === null) {
    await record({ ...base, status: 'dead' });
    outcome('dead');
    return { kind: 'done' };
  }
  const next = new Date(at.getTime() + delay);
  await record({ ...base, status: 'failed', nextAttemptAt: next });
  outcome('retry');
  return { kind: 'retry', at: next, error: result.error };
}
