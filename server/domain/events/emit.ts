import { sql, type SQL } from 'drizzle-orm';
import { events } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Tx } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';
import { validateEventData, type EventData, type EventType } from './catalog';

/**
 * SSE streams LISTEN here; the payload names the scope so a stream wakes only for its own tenant and mode.
 * Sent by the `events_notify` trigger on an insert into `events` while a stream of its scope is open (stream-presence.ts).
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
 * Appends an event to the log inside the caller's transaction. The insert itself queues one delivery per
 * enabled subscribed endpoint (trigger `events_fan_out`, migrations 0006 and 0037) and wakes the SSE streams
 * (trigger `events_notify`, migrations 0005, 0009 and 0037: once per inserting statement): the state change, its
 * event and its deliveries commit together or not at all.
 */
export async function emitEvent<T extends EventType>(tx: Tx, scope: Scope, type: T, data: EventData<T>) {
  const event = newEvent(type, data);
  await scoped(tx, scope).insertMany(events, [event]);
  return event;
}

/**
 * The insert of events into the log as SQL, for a statement that writes more in its CTEs (docs/decisions/performance.md,
 * "Public runtime: statements per request"), rendered once (`namedStatement`): one row per name, filled by
 * the group of that name (`eventValues(event)`), each taking the statement's `s.tenantId` and `s.livemode`, like
 * `scoped(…).insertMany`; the triggers fire as for any insert. `where`, when given, is a condition over the
 * statement's other CTEs: the events are written only when it holds.
 */
export function eventsInsertSql(names: string[], where?: SQL): SQL {
  const p = sql.placeholder;
  const select = names.map(
    (n) => sql`select ${p(`${n}.id`)}::text, ${p('s.tenantId')}::text, ${p('s.livemode')}::boolean, ${p(`${n}.type`)}::text, ${p(`${n}.data`)}::jsonb, ${p(`${n}.at`)}::timestamptz${where ? sql` where ${where}` : sql``}`,
  );
  return sql`insert into events (id, tenant_id, livemode, type, data, created_at) ${sql.join(select, sql` union all `)}`;
}

/** The group of values of one row of `eventsInsertSql`. */
export const eventValues = (e: ReturnType<typeof newEvent>) => ({ id: e.id, type: e.type, data: JSON.stringify(e.data), at: e.createdAt.toISOString() });
