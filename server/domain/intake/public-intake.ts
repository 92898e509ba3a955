import type { Db, Queryable } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { findPatientByEmail, insertPatient, type PatientFields } from '@/server/domain/patients/patients';
import { generateSyntheticPatient } from '@/server/domain/patients/synthetic';
import { isPlausibleDateOfBirth } from '@/server/domain/patients/validation';
import { DERIVED, type Condition } from './questionnaire-schema';
import { errors } from '@/server/lib/errors';
import { now } from '@/server/lib/clock';
import { patientOutcome } from './patient-outcome';
import { patientView } from './patient-view';
import { requireUsableQuestionnaire, type QuestionnaireRow } from './questionnaire-store';
import { assertAnswersFit, recordSubmission } from './submissions-create';

/** What the embed key behind a public call allows (DESIGN decision 17). */
export interface EmbedAccess {
  keyId: string;
  tenantId: string;
  livemode: boolean;
  /** Questionnaire keys the embed key may serve; empty = every approved one. */
  questionnaireKeys: readonly string[];
}

export interface PublicPatient {
  name: string;
  email: string;
  dateOfBirth?: string;
  state: string;
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

/** "Ada King Lovelace" → first "Ada King", last "Lovelace"; a single word is the first name, the last name empty. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/);
  if (words.length === 1) return { firstName: words[0], lastName: '' };
  return { firstName: words.slice(0, -1).join(' '), lastName: words[words.length - 1] };
}

/** Every `q` a condition tree reads. */
const operands = (c: Condition): string[] =>
  'all' in c ? c.all.flatMap(operands) : 'any' in c ? c.any.flatMap(operands) : 'not' in c ? operands(c.not) : [c.q];

/** The answer `age()` reads (the questionnaire's own date-of-birth question), when it is a plausible date. */
export function dateOfBirthAnswer(doc: QuestionnaireRow['document'], answers: Record<string, unknown>): string | undefined {
  const conditions = [...doc.rules.map((r) => r.when), ...doc.items.flatMap((i) => (i.enableWhen ? [i.enableWhen] : []))];
  const linkId = conditions.flatMap(operands).map((q) => DERIVED.exec(q)?.[2]).find(Boolean);
  const answered = linkId ? answers[linkId] : undefined;
  return typeof answered === 'string' && isPlausibleDateOfBirth(answered) ? answered : undefined;
}

/** The date of birth: sent, else the answer `age()` reads. */
function dateOfBirthOf(row: QuestionnaireRow, patient: PublicPatient, answers: Record<string, unknown>): string {
  const found = patient.dateOfBirth ?? dateOfBirthAnswer(row.document, answers);
  if (found) return found;
  throw errors.validation('patient.dateOfBirth is required: this questionnaire does not ask for the date of birth.', 'patient.dateOfBirth', 'parameter_missing');
}

/** Who a public caller says they are; `state` is where a sandbox run's synthetic patient lives. */
export interface PublicPerson {
  name: string;
  email: string;
  state?: string;
}

/**
 * A live patient is matched by e-mail (ignoring case) within the tenant and mode, else created from what was
 * sent (`dateOfBirth` is asked only then); a matched record is never changed by an unauthenticated caller. In
 * sandbox nothing sent is kept: every submission gets a fresh synthetic patient in the declared state (sandbox
 * data is never real PHI). Shared by public intake and flows.
 */
export async function publicPatient(tx: Queryable, actor: TenantPrincipal, person: PublicPerson, dateOfBirth: () => string, requestId: string | null) {
  if (!actor.livemode) {
    const synthetic = generateSyntheticPatient();
    const address = synthetic.address && person.state ? { ...synthetic.address, state: person.state } : synthetic.address;
    return insertPatient(tx, actor, { ...synthetic, address }, requestId);
  }
  const existing = await findPatientByEmail(tx, actor, person.email);
  if (existing) return existing;
  const fields: PatientFields = {
    ...splitName(person.name),
    dateOfBirth: dateOfBirth(),
    // Public intake does not ask for it; the clinic records it before prescribing.
    sex: 'unknown',
    email: person.email.trim(),
    phone: null,
    // The patients table keeps a state only inside a complete shipping address, which this form does not collect.
    address: null,
    allergies: [],
    medications: [],
  };
  return insertPatient(tx, actor, fields, requestId);
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
export async function submitPublic(db: Db, embed: EmbedAccess, input: PublicSubmission, requestId: string | null) {
  const actor = embedActor(embed);
  return db.transaction(async (tx) => {
    const row = await servableQuestionnaire(tx, embed, input.questionnaireKey);
    assertAnswersFit(row, input.answers);
    const patient = await publicPatient(tx, actor, input.patient, () => dateOfBirthOf(row, input.patient, input.answers), requestId);
    const at = now();
    const { row: submission, evaluation } = await recordSubmission(tx, embed, row, { source: 'public', patientId: patient.id, embedKeyId: embed.keyId }, input.answers, at);
    return { submissionId: submission.id, ...patientOutcome(row.document, evaluation), reference: submission.reference!, certificate: submission.certificate, sandbox: !embed.livemode };
  });
}
