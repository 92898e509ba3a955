import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Per-tenant feature flags (DESIGN decision 16); both off unless ops turns them on. */
export interface TenantFeatures {
  flow_checkout: boolean;
  flow_ai_freeform_medical: boolean;
}

export const tenants = pgTable('tenants', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  plan: text('plan').notNull().default('free'),
  features: jsonb('features').$type<Partial<TenantFeatures>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
