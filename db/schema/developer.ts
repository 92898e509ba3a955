import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    // Null for platform ops keys, which belong to no tenant.
    tenantId: text('tenant_id').references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    name: text('name').notNull(),
    keyType: text('key_type').$type<'secret' | 'restricted'>().notNull(),
    prefix: text('prefix').notNull(),
    last4: text('last4').notNull(),
    hash: text('hash').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    // Who minted the key: a user (`usr_`), another key of the tenant (`key_`), or the platform (`ops`, whose
    // key id is null when the CLI or the demo seed minted it). Kept after the creator is deactivated or
    // revoked: what it created stays valid, so the list has to say where each key came from.
    createdBy: text('created_by'),
    createdByType: text('created_by_type').$type<'user' | 'api_key' | 'ops'>(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('api_keys_hash_idx').on(t.hash), index('api_keys_tenant_idx').on(t.tenantId, t.id)],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: text('id').primaryKey(),
    // Tenant id, or "platform" for ops principals.
    scope: text('scope').notNull(),
    livemode: boolean('livemode').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    // The API key or user whose request this was: a stored answer is theirs, not the whole tenant's.
    credential: text('credential').notNull(),
    state: text('state').$type<'in_flight' | 'done'>().notNull(),
    // Claims of requests that cannot run inside one transaction lapse then, so a crashed owner frees the key.
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    responseStatus: integer('response_status'),
    // Never a plaintext secret or PHI: secret fields are nulled, patient records are kept as `resourceId`.
    responseBody: jsonb('response_body'),
    resourceId: text('resource_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('idempotency_scope_key_idx').on(t.scope, t.livemode, t.key), index('idempotency_created_idx').on(t.createdAt)],
);
