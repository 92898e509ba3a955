import { events } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Tx } from '@/server/db/types';
import { enqueueDeliveries, subscribedEndpoints } from '@/server/domain/webhooks/deliveries';
import { now } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';
import { validateEventData, type EventData, type EventType } from './catalog';

/**
 * SSE streams LISTEN here; the payload names the scope so a stream wakes only for its own tenant and mode.
 * Sent by the `events_notify` trigger on every insert into `events`.
 */
export const EVENTS_CHANNEL = 'fr_events';
export const scopeTag = (scope: Scope) => `${scope.tenantId}:${scope.livemode ? 'live' : 'sandbox'}`;

/**
 * An event ready to append, in the caller's transaction, with the state change it reports. Data that
 * breaks the type's schema (an undeclared key above all) throws before anything is written.
 */
export function newEvent<T extends EventType>(type: T, data: EventData<T>) {
  return { id: newId('event'), type: type as string, data: validateEventData(type, data) as Record<string, unknown>, createdAt: now() };
}

/**
 * Appends an event to the log and queues one delivery per enabled subscribed endpoint, inside the caller's
 * transaction: the state change, its event and its deliveries commit together or not at all. The insert
 * itself wakes the SSE streams (trigger `events_notify`, migration 0005), on EVENTS_CHANNEL.
 */
export async function emitEvent<T extends EventType>(tx: Tx, scope: Scope, type: T, data: EventData<T>) {
  const event = newEvent(type, data);
  await scoped(tx, scope).insertMany(events, [event]);
  await enqueueDeliveries(tx, scope, event, await subscribedEndpoints(tx, scope, event.type), 'event');
  return event;
}
