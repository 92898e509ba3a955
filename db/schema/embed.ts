import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

/**
 * Public keys that address the patient-facing paths (DESIGN decision 17). The key itself is public by design,
 * so it is stored in the clear and is its own id (`emb_…`).
 */
export const embedKeys = pgTable(
  'embed_keys',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    name: text('name'),
    allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull(),
    // The flow it serves (flows issue), or null for public intake only.
    flowId: text('flow_id'),
    // Questionnaire keys it may serve for public intake; empty = every approved one.
    questionnaireKeys: jsonb('questionnaire_keys').$type<string[]>().notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('embed_keys_scope_idx').on(t.tenantId, t.livemode, t.id)],
);
