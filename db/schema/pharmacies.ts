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

export type VerificationStatus = 'running' | 'passed' | 'failed';

/** One check of a protocol verification run, as the checker reported it (server/integrations/pharmacies/protocol-check). */
export interface VerificationCheck {
  name: string;
  title: string;
  passed: boolean;
  expected: string;
  seen: string;
  ms: number;
}

/** A status callback the pharmacy sent for the run's test order: its Standard Webhooks headers and raw body. */
export interface VerificationCallback {
  headers: { 'webhook-id'?: string; 'webhook-timestamp'?: string; 'webhook-signature'?: string };
  body: string;
  receivedAt: string;
}

/**
 * Protocol checks run from the service against an http pharmacy (`POST /v1/pharmacies/{id}/verify`, issue 54).
 * The run's id is unguessable (newSecretId): it is also the path its test order's callbacks arrive at, and
 * only while it runs. The test order is synthetic, so nothing here is PHI.
 */
export const pharmacyVerifications = pgTable(
  'pharmacy_verifications',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    connectionId: text('connection_id')
      .notNull()
      .references(() => pharmacyConnections.id),
    status: text('status').$type<VerificationStatus>().notNull(),
    // The base URL the run checked (the connection's may change later).
    baseUrl: text('base_url').notNull(),
    checks: jsonb('checks').$type<VerificationCheck[]>().notNull(),
    callbacks: jsonb('callbacks').$type<VerificationCallback[]>().notNull(),
    requestedBy: text('requested_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('pharmacy_verifications_connection_idx').on(t.tenantId, t.livemode, t.connectionId, t.id)],
);
