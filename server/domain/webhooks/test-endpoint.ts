import { webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { TEST_EVENT_TYPE } from '@/server/domain/events/catalog';
import { toEventDto } from '@/server/domain/events/events';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import type { DeliveryOptions } from './options';
import { sendSigned } from './send';

/**
 * Sends a synthetic, signed event that carries only the endpoint's own id, waits for the receiver's
 * answer and records it in the endpoint's history. It is not written to the event log nor retried.
 */
export async function testEndpoint(db: Db, scope: Scope, id: string, opts: DeliveryOptions) {
  const s = scoped(db, scope);
  const endpoint = await s.require(webhookEndpoints, id, 'webhook endpoint');
  if (endpoint.status !== 'enabled') {
    throw errors.conflict('The endpoint is disabled and receives nothing; enable it to send a test event.', 'endpoint_disabled');
  }
  const event = { id: newId('event'), type: TEST_EVENT_TYPE, data: { endpointId: endpoint.id }, createdAt: now() };
  const result = await sendSigned(
    { url: endpoint.url, secret: endpoint.secret, eventId: event.id, body: JSON.stringify(toEventDto(event)) },
    { timeoutMs: opts.timeoutMs, policy: opts.policy },
  );
  const at = now();
  await s.insert(webhookDeliveries, {
    id: newId('delivery'),
    endpointId: endpoint.id,
    eventId: event.id,
    eventType: event.type,
    trigger: 'test',
    status: result.ok ? 'delivered' : 'failed',
    attempts: 1,
    responseCode: result.responseCode,
    lastError: result.error,
    createdAt: event.createdAt,
    lastAttemptAt: at,
    deliveredAt: result.ok ? at : null,
    nextAttemptAt: at,
  });
  return { status: result.ok ? ('delivered' as const) : ('failed' as const), responseCode: result.responseCode, lastError: result.error };
}
