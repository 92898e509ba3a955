import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The durable, PHI-free event log; rows live at least EVENT_RETENTION_DAYS, whatever webhooks do. */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('events_scope_idx').on(t.tenantId, t.livemode, t.id),
    index('events_scope_type_idx').on(t.tenantId, t.livemode, t.type, t.id),
    index('events_created_idx').on(t.createdAt),
  ],
);

/**
 * The tenant scopes (`id` = "<tenant>:<live|sandbox>") with an SSE stream open somewhere, until when: every
 * open stream pushes `until` on at each heartbeat. The `events_notify` trigger sends its NOTIFY only for a
 * scope listed here, because a NOTIFY serializes the commits of all transactions that send one, and a
 * scope nobody streams must not pay that on every order transition. Not tenant data: ids only, no reads.
 */
export const eventStreams = pgTable('event_streams', {
  id: text('id').primaryKey(),
  until: timestamp('until', { withTimezone: true }).notNull(),
});
