import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { QuestionnaireDocumentShape } from '@/server/domain/intake/shared/shapes';
import { tenants } from './tenants';

/** `superseded`: a pending version older than one a provider approved since (DESIGN decision 45); never approvable. */
export type QuestionnaireStatus = 'draft' | 'pending' | 'approved' | 'retired' | 'superseded';
// `fhir`: imported from a FHIR Questionnaire (DESIGN decision 42).
export type QuestionnaireOrigin = 'staff' | 'ai' | 'fhir';

/** One version of a questionnaire (DESIGN decision 18). Holds no PHI: it is the clinic's form. */
export const questionnaires = pgTable(
  'questionnaires',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    key: text('key').notNull(),
    version: integer('version').notNull(),
    status: text('status').$type<QuestionnaireStatus>().notNull(),
    origin: text('origin').$type<QuestionnaireOrigin>().notNull(),
    document: jsonb('document').$type<QuestionnaireDocumentShape>().notNull(),
    // SHA-256 hex of the RFC 8785 canonical JSON of `document`.
    contentHash: text('content_hash').notNull(),
    createdBy: text('created_by').notNull(),
    approvedBy: text('approved_by'),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    approvalNote: text('approval_note'),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    // The approved version whose approval superseded this pending one, and when (decision 45).
    supersededBy: text('superseded_by'),
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('questionnaires_scope_idx').on(t.tenantId, t.livemode, t.id),
    uniqueIndex('questionnaires_version_idx').on(t.tenantId, t.livemode, t.key, t.version),
    index('questionnaires_status_idx').on(t.tenantId, t.livemode, t.status, t.key),
  ],
);

export type IntakeSource = 'in_app' | 'public' | 'hosted' | 'flow';
export type IntakeStatus = 'pending_review' | 'disqualified' | 'approved' | 'rejected';
export type IntakeVerdict = 'eligible' | 'disqualified' | 'incomplete';
export type IdentityStatus = 'mismatch' | 'resolved';
export type IdentityResolution = 'existing' | 'new';
/** Which identity facts of a matched patient differ from a submission's (names only, never values). */
export type IdentityField = 'dateOfBirth' | 'sexAtBirth' | 'lastName';

/** A patient's run through a questionnaire (DESIGN decision 21). Ids, verdict and rule ids only; answers live in `intake_answers`. */
export const intakeSubmissions = pgTable(
  'intake_submissions',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    questionnaireId: text('questionnaire_id').notNull(),
    questionnaireKey: text('questionnaire_key').notNull(),
    questionnaireVersion: integer('questionnaire_version').notNull(),
    patientId: text('patient_id').notNull(),
    source: text('source').$type<IntakeSource>().notNull(),
    status: text('status').$type<IntakeStatus>().notNull(),
    verdict: text('verdict').$type<IntakeVerdict>().notNull(),
    // Required enabled items left unanswered, disqualifying rule ids hit, review-flag rule ids hit.
    missing: jsonb('missing').$type<string[]>().notNull(),
    hits: jsonb('hits').$type<string[]>().notNull(),
    flags: jsonb('flags').$type<string[]>().notNull(),
    certificate: text('certificate'),
    embedKeyId: text('embed_key_id'),
    flowId: text('flow_id'),
    flowSessionId: text('flow_session_id'),
    // The short reference shown to the patient (server/domain/intake/submission-reference.ts); no PHI. Null on
    // submissions made before references existed (no patient was ever shown one).
    reference: text('reference'),
    // The order created when a provider approved it.
    orderId: text('order_id'),
    reviewedBy: text('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    // A provider's free text: may hold clinical detail, so never put in events, logs or errors.
    reviewNote: text('review_note'),
    // Patient matching (DESIGN decision 32): a live e-mail match whose facts differ blocks approval until resolved.
    // Field names only here; the two records themselves are PHI (patients, intake_answers.facts).
    identityStatus: text('identity_status').$type<IdentityStatus>(),
    identityFields: jsonb('identity_fields').$type<IdentityField[]>(),
    identityMatchedPatientId: text('identity_matched_patient_id'),
    identityResolution: text('identity_resolution').$type<IdentityResolution>(),
    identityResolvedBy: text('identity_resolved_by'),
    identityResolvedAt: timestamp('identity_resolved_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('intake_submissions_scope_idx').on(t.tenantId, t.livemode, t.id),
    index('intake_submissions_status_idx').on(t.tenantId, t.livemode, t.status, t.id),
    index('intake_submissions_reference_idx').on(t.tenantId, t.livemode, t.reference),
  ],
);

/**
 * The person a submission describes, its identity facts reconciled across the answers, the contact step and
 * the submit body (DESIGN decision 31). PHI. Fields a path did not collect are null.
 */
export interface SubmissionFacts {
  name: string | null;
  email: string | null;
  dateOfBirth: string | null;
  sexAtBirth: 'female' | 'male' | 'intersex' | 'unknown' | null;
  state: string | null;
  phone: string | null;
  address: { line1: string; line2: string | null; city: string; state: string; postalCode: string; country: 'US' } | null;
}

/** PHI: a submission's answers and reconciled facts. Read only through the intake domain, which logs every read. */
export const intakeAnswers = pgTable('intake_answers', {
  submissionId: text('submission_id')
    .primaryKey()
    .references(() => intakeSubmissions.id),
  tenantId: text('tenant_id').notNull(),
  livemode: boolean('livemode').notNull(),
  answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
  // Null for submissions made before facts were kept.
  facts: jsonb('facts').$type<SubmissionFacts>(),
});

/** One-time hosted intake links (`/i/{token}`); only the token's SHA-256 is kept. */
export const intakeHostedLinks = pgTable(
  'intake_hosted_links',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    tokenHash: text('token_hash').notNull(),
    patientId: text('patient_id').notNull(),
    questionnaireKey: text('questionnaire_key').notNull(),
    createdBy: text('created_by').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    submissionId: text('submission_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('intake_hosted_links_token_idx').on(t.tokenHash), index('intake_hosted_links_scope_idx').on(t.tenantId, t.livemode, t.id)],
);

/**
 * The platform's certificate signing keys (DESIGN decision 20): Ed25519, the private half encrypted with a key
 * derived from AUTH_SECRET. The newest unretired key signs; every key's public half stays published.
 */
export const certificateKeys = pgTable('certificate_keys', {
  kid: text('kid').primaryKey(),
  publicJwk: jsonb('public_jwk').$type<Record<string, string>>().notNull(),
  privateKeyEncrypted: text('private_key_encrypted').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  retiredAt: timestamp('retired_at', { withTimezone: true }),
});
