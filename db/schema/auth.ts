import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    // Null for platform staff (role ops), who belong to no tenant.
    tenantId: text('tenant_id').references(() => tenants.id),
    email: text('email').notNull(),
    name: text('name'),
    role: text('role').$type<'owner' | 'admin' | 'developer' | 'provider' | 'ops'>().notNull(),
    // Null until an invited user sets a password.
    passwordHash: text('password_hash'),
    mfaSecret: text('mfa_secret'),
    mfaEnabledAt: timestamp('mfa_enabled_at', { withTimezone: true }),
    // The 30 s time step of the last code accepted: a code is good once (RFC 6238 §5.2), so it and older
    // ones are refused after that.
    mfaLastStep: integer('mfa_last_step'),
    npi: text('npi'),
    npiVerifiedAt: timestamp('npi_verified_at', { withTimezone: true }),
    // States ops has attested (or entered when creating the provider): the only ones that authorize an approval.
    licensedStates: jsonb('licensed_states').$type<string[]>().notNull().default([]),
    // States a clinic admin added, waiting for ops to attest them (as with the NPI); they authorize nothing.
    pendingLicensedStates: jsonb('pending_licensed_states').$type<string[]>().notNull().default([]),
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    // Access tokens issued before this instant are refused (logout everywhere, deactivation).
    sessionsValidAfter: timestamp('sessions_valid_after', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email), index('users_tenant_idx').on(t.tenantId, t.id)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_idx').on(t.tokenHash), index('refresh_tokens_family_idx').on(t.familyId)],
);

/** Single-use links sent by mail: magic sign-in and invitations. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose').$type<'magic_link' | 'invite'>().notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('one_time_tokens_hash_idx').on(t.tokenHash)],
);

/**
 * Networks a user has completed a sign-in from (password, and the TOTP code when enrolled). Failed passwords
 * from elsewhere slow down sign-ins from unknown networks only, so an attacker cannot lock the owner out.
 */
export const knownSignInSources = pgTable(
  'known_sign_in_sources',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    // HMAC of the client address under the auth secret: recognisable on the next sign-in, not readable.
    sourceHash: text('source_hash').notNull(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sourceHash] })],
);

export type LicenseChangeKind = 'requested' | 'attested' | 'removed' | 'withdrawn';

/**
 * Every change to a provider's licensed states, one row per state: who asked for it or attested it, and
 * when. Append-only: the licence history an auditor asks for when an approval is questioned.
 */
export const licenseChanges = pgTable(
  'provider_license_changes',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    state: text('state').notNull(),
    change: text('change').$type<LicenseChangeKind>().notNull(),
    actorKind: text('actor_kind').$type<'user' | 'key' | 'ops' | 'system'>().notNull(),
    actorId: text('actor_id'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('provider_license_changes_user_idx').on(t.tenantId, t.userId, t.id)],
);
