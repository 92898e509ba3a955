import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    url: text('url').notNull(),
    // The team's own note on what the endpoint is for; shown in the console, never sent to the receiver.
    description: text('description'),
    // Empty means every event type.
    events: jsonb('events').$type<string[]>().notNull(),
    status: text('status').$type<'enabled' | 'disabled'>().notNull(),
    // Kept in the clear: every delivery signs with it (Standard Webhooks HMAC needs the secret itself).
    secret: text('secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webhook_endpoints_scope_idx').on(t.tenantId, t.livemode, t.id)],
);

/** One row per (event, endpoint, trigger); each attempt updates it. Capped at the newest 50 per endpoint. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    // No foreign key: test deliveries carry a synthetic event, and the log is pruned on its own schedule.
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    trigger: text('trigger').$type<'event' | 'replay' | 'test'>().notNull(),
    status: text('status').$type<'pending' | 'failed' | 'delivered' | 'dead'>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    responseCode: integer('response_code'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id)],
);
