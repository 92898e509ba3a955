import type { PatientAddress } from '@/db/schema';
import type { Db, Queryable } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { errors } from '@/server/lib/errors';
import { now } from '@/server/lib/clock';
import { answeredFacts, answersWithFacts, reconcileFacts, submissionFacts } from './identity-facts';
import { dateOfBirthRequired, publicPatient } from './patient-matching';
import { patientOutcome } from './patient-outcome';
import { patientView } from './patient-view';
import { assertConsentHasPhone, recordSmsConsent } from '@/server/domain/notices/consent';
import { requireUsableQuestionnaire, type QuestionnaireRow } from './questionnaire-store';
import type { CertificateSigner } from './certificates';
import { assertAnswersFit, recordSubmission } from './submissions-create';

/** What the embed key behind a public call allows (DESIGN decision 17). */
export interface EmbedAccess {
  keyId: string;
  tenantId: string;
  livemode: boolean;
  /** Questionnaire keys the embed key may serve; empty = every approved one. */
  questionnaireKeys: readonly string[];
}

/** A shipping address as public callers send it: the state is the patient's own `state`. */
export interface PublicAddress {
  line1: string;
  line2?: string | null;
  city: string;
  postalCode: string;
  state?: string;
}

export interface PublicPatient {
  name: string;
  email: string;
  dateOfBirth?: string;
  state: string;
  phone?: string;
  address?: PublicAddress;
  /** The patient agreed to text messages at `phone` (DESIGN decision 41). */
  smsConsent?: boolean;
}

/** The address to keep: its state must be the patient's state (one state per person), 400 otherwise. */
export function shippingAddress(address: PublicAddress | undefined, state: string, param: string): PatientAddress | null {
  if (!address) return null;
  if (address.state !== undefined && address.state !== state) {
    throw errors.validation('The shipping address must be in the state you live in; check the state.', `${param}.state`, 'fact_mismatch');
  }
  return { line1: address.line1, line2: address.line2 ?? null, city: address.city, state, postalCode: address.postalCode, country: 'US' };
}

export interface PublicSubmission {
  questionnaireKey: string;
  patient: PublicPatient;
  answers: Record<string, unknown>;
}

/** A key outside the embed key's list is the same 404 as one that does not exist. */
async function servableQuestionnaire(q: Queryable, embed: EmbedAccess, key: string): Promise<QuestionnaireRow> {
  if (embed.questionnaireKeys.length > 0 && !embed.questionnaireKeys.includes(key)) throw errors.notFound('questionnaire');
  return requireUsableQuestionnaire(q, embed, key);
}

/** GET /public/intake/{embedKey}/questionnaires/{key}: the patient-safe view (no rules, no disqualifier logic). */
export async function getPublicQuestionnaire(db: Db, embed: EmbedAccess, key: string) {
  const row = await servableQuestionnaire(db, embed, key);
  return { key: row.key, version: row.version, questionnaire: patientView(row.document) };
}

/** The embed key as the actor of the patient's access-log entry: no person or API key made the call. */
export const embedActor = (embed: { keyId: string; tenantId: string; livemode: boolean }): TenantPrincipal => ({
  kind: 'key',
  tenantId: embed.tenantId,
  livemode: embed.livemode,
  scopes: [],
  keyId: embed.keyId,
  rateLimitKey: embed.keyId,
});

/**
 * POST /public/intake/{embedKey}/submissions: the patient (matched or created), the submission, its answers,
 * certificate and event in one transaction; answers that do not fit are refused before anything is written.
 */
export async function submitPublic(db: Db, embed: EmbedAccess, input: PublicSubmission, requestId: string | null, signer: CertificateSigner) {
  const actor = embedActor(embed);
  return db.transaction(async (tx) => {
    const row = await servableQuestionnaire(tx, embed, input.questionnaireKey);
    assertAnswersFit(row, input.answers);
    const { patient: sent } = input;
    // One person (DESIGN decision 31): the patient's date of birth and state must be the ones answered.
    const facts = reconcileFacts(answeredFacts(row.document, input.answers), { dateOfBirth: sent.dateOfBirth, state: sent.state }, (f) => `patient.${f}`);
    const address = shippingAddress(sent.address, sent.state, 'patient.address');
    const person = { name: sent.name, email: sent.email, facts, phone: sent.phone ?? null, address };
    const noDateOfBirth = dateOfBirthRequired('patient.dateOfBirth', 'patient.dateOfBirth is required: this questionnaire does not ask for the date of birth.');
    assertConsentHasPhone(sent.smsConsent, sent.phone, 'patient.smsConsent');
    const matched = await publicPatient(tx, actor, person, noDateOfBirth, requestId);
    const { patient, mismatch } = matched;
    if (sent.smsConsent) await recordSmsConsent(tx, embed, matched, sent.phone);
    const at = now();
    const { row: submission, evaluation } = await recordSubmission(
      tx,
      embed,
      row,
      { source: 'public', patientId: patient.id, embedKeyId: embed.keyId, facts: submissionFacts(person, facts), identityMismatch: mismatch },
      answersWithFacts(row.document, input.answers, facts),
      signer,
      at,
    );
    return { submissionId: submission.id, ...patientOutcome(row.document, evaluation), reference: submission.reference!, certificate: submission.certificate, sandbox: !embed.livemode };
  });
}
