import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

export type PharmacyAdapterName = 'simulated' | 'http';

export const pharmacyConnections = pgTable(
  'pharmacy_connections',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    name: text('name').notNull(),
    adapter: text('adapter').$type<PharmacyAdapterName>().notNull(),
    // Adapter-specific, validated by the adapter's own schema (server/integrations/pharmacies).
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    // Two-letter US state codes the pharmacy is licensed to ship to.
    states: jsonb('states').$type<string[]>().notNull(),
    status: text('status').$type<'enabled' | 'disabled'>().notNull(),
    // Standard Webhooks secret: signs our requests to the pharmacy and verifies its callbacks.
    secret: text('secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('pharmacy_connections_scope_idx').on(t.tenantId, t.livemode, t.id)],
);

export type RoutingStrategy = 'priority' | 'lowest_cost' | 'fastest';

export const routingPolicies = pgTable(
  'routing_policies',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    strategy: text('strategy').$type<RoutingStrategy>().notNull(),
    priority: jsonb('priority').$type<string[]>().notNull(),
    requireStateLicense: boolean('require_state_license').notNull(),
    allowFallback: boolean('allow_fallback').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('routing_policies_scope_idx').on(t.tenantId, t.livemode)],
);

/**
 * The simulated pharmacy's own order book. It stands for a system outside ours, so it is written apart
 * from any of our transactions and keyed by the idempotency key we send, as a real pharmacy would.
 */
export const simulatedPharmacyOrders = pgTable(
  'simulated_pharmacy_orders',
  {
    id: text('id').primaryKey(),
    connectionId: text('connection_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    // Fixed at receipt from the connection's script; the current status is derived from elapsed time.
    outcome: text('outcome').$type<'accept' | 'reject'>().notNull(),
    reasonCode: text('reason_code'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('simulated_pharmacy_orders_key_idx').on(t.connectionId, t.idempotencyKey)],
);
