import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

/** The durable, PHI-free event log; rows live at least EVENT_RETENTION_DAYS, whatever webhooks do. */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
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
