import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
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
    actorKind: text('actor_kind').$type<'key' | 'user'>().notNull(),
    actorId: text('actor_id').notNull(),
    requestId: text('request_id'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('patient_access_log_patient_idx').on(t.tenantId, t.livemode, t.patientId, t.id)],
);
