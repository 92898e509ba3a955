import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

export interface PatientAddress {
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  postalCode: string;
  country: 'US';
}

/** PHI. Read only through the patients domain, which records every read in the access log. */
export const patients = pgTable(
  'patients',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    synthetic: boolean('synthetic').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    dateOfBirth: text('date_of_birth').notNull(),
    sex: text('sex').$type<'female' | 'male' | 'intersex' | 'unknown'>().notNull(),
    email: text('email'),
    phone: text('phone'),
    address: jsonb('address').$type<PatientAddress>(),
    // The state of residence, kept even without a full address: the provider's licence is checked against it.
    // Follows the address's state whenever an address is written.
    state: text('state'),
    allergies: jsonb('allergies').$type<string[]>().notNull(),
    medications: jsonb('medications').$type<string[]>().notNull(),
    // The patient's notice choices (DESIGN decision 41): e-mail on until they opt out; SMS only once they gave a
    // phone with SMS consent (smsConsentAt) and did not opt out since. Both are changed from the portal
    // (PATCH /v1/patient/me/notifications) or a signed unsubscribe link, honoured at once.
    notifyEmail: boolean('notify_email').notNull().default(true),
    notifySms: boolean('notify_sms').notNull().default(false),
    smsConsentAt: timestamp('sms_consent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('patients_scope_idx').on(t.tenantId, t.livemode, t.id),
    // Public intake matches a returning patient by e-mail ignoring case (lower(email)): without this every new
    // patient's submission scanned all of the clinic's patients.
    index('patients_email_idx').on(t.tenantId, t.livemode, sql`lower(${t.email})`),
  ],
);

/** Who touched a record: an API key, a clinic user, or the patient through the portal. */
export type PatientAccessActor = 'key' | 'user' | 'patient';

export type PatientAccessAction = 'create' | 'read' | 'list' | 'update' | 'intake_read' | 'identity_resolve';

/** Who touched which patient record, when and how: the start of the HIPAA audit trail. Holds ids only. */
export const patientAccessLog = pgTable(
  'patient_access_log',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    patientId: text('patient_id')
      .notNull()
      .references(() => patients.id),
    action: text('action').$type<PatientAccessAction>().notNull(),
    // `patient`: the patient themself, signed in to the portal (DESIGN decision 40); actorId is then their session (pss_…).
    actorKind: text('actor_kind').$type<PatientAccessActor>().notNull(),
    actorId: text('actor_id').notNull(),
    requestId: text('request_id'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('patient_access_log_patient_idx').on(t.tenantId, t.livemode, t.patientId, t.id)],
);

/**
 * One sign-in request to the patient portal (DESIGN decision 39). A row is written for every request, whether
 * or not a patient matched (`patientId` null), so both answers cost the same; the worker turns a matched row into
 * the mail, writing `codeHash` then. Holds no e-mail: `emailKey` is a keyed hash of the normalised address.
 */
export const patientLoginChallenges = pgTable(
  'patient_login_challenges',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    // The portal (embed key) the request came through: the mail links back to it.
    embedKeyId: text('embed_key_id').notNull(),
    emailKey: text('email_key').notNull(),
    patientId: text('patient_id'),
    // Keyed hash of the 6-digit code (which the link carries too); null until the worker has mailed it.
    codeHash: text('code_hash'),
    // Codes tried against this challenge; at 5 it is spent.
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('patient_login_challenges_email_idx').on(t.tenantId, t.livemode, t.emailKey, t.expiresAt)],
);

/**
 * A signed-in patient (DESIGN decision 39): bound to one patient of one clinic and mode; the bearer token is
 * stored as its SHA-256 only. It ends 30 minutes after its last use, 12 hours after sign-in, or at logout.
 */
export const patientSessions = pgTable(
  'patient_sessions',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    patientId: text('patient_id')
      .notNull()
      .references(() => patients.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('patient_sessions_token_idx').on(t.tokenHash)],
);
