import * as z from '@/server/lib/zod';
import { checkAnswers, evaluate } from '@/server/domain/intake/shared/engine';
import type { EngineDocument } from '@/server/domain/intake/shared/shapes';
import type { QuestionnaireRow } from '@/server/domain/intake/questionnaire-store';
import type { PatientAddress } from '@/db/schema';
import { POSTAL_CODE } from '@/server/domain/patients/contact-details';
import { isPlausibleDateOfBirth, normalisePhone } from '@/server/domain/patients/validation';
import { normalizeEmail } from '@/server/lib/email';
import { AppError, type ErrorDetail } from '@/server/lib/errors';
import { STEP_ID, type ConsentStepShape, type FlowStepShape, type MedicalStepShape, type QuizQuestionShape } from '@/server/domain/flows/shared/shapes';
import { isUsState } from '@/server/lib/us-states';

/**
 * Per-kind checks of a step's answers (DESIGN decision 24): 400 with `param` `answers.<id>` naming the first
 * problem, the others in `details`; messages name the question and what it expects, never the value sent
 * (answers are PHI). Returns what is held for the step.
 */

type Answers = Record<string, unknown>;
interface Problem {
  param: string;
  message: string;
}

function refuse(problems: Problem[], code = 'invalid_answer'): never {
  const [first] = problems;
  throw new AppError('validation_error', code, 400, first.message, first.param, undefined, problems.map((p): ErrorDetail => ({ param: p.param, message: p.message })));
}

/** A key the step does not know: named by `param` only when it is id-shaped, never repeated in the message. */
const unknownKey = (key: string): Problem =>
  STEP_ID.test(key) ? { param: `answers.${key}`, message: 'This step has no question with this id.' } : { param: 'answers', message: 'An answer is keyed by something that is not a question of this step.' };

// A medical step's slice of the questionnaire, compiled once per (questionnaire version, step).
const slices = new Map<string, EngineDocument>();
function stepSlice(questionnaire: QuestionnaireRow, step: MedicalStepShape): EngineDocument {
  const key = `${questionnaire.id}:${step.id}:${step.linkIds.join(',')}`;
  let slice = slices.get(key);
  if (!slice) {
    const ids = new Set(step.linkIds);
    // No rules: a step answers "does this page fit", never "is the patient eligible" (that waits for submit).
    slice = { items: questionnaire.document.items.filter((i) => ids.has(i.linkId)), rules: [] };
    if (slices.size >= 5000) slices.clear();
    slices.set(key, slice);
  }
  return slice;
}

/** The engine's own checks, restricted to the step's items; a required, shown, unanswered item is refused too. */
function medical(step: MedicalStepShape, questionnaire: QuestionnaireRow, answers: Answers, asOf: string): Answers {
  const slice = stepSlice(questionnaire, step);
  const problems = checkAnswers(slice, answers);
  if (problems.length) refuse(problems);
  // enableWhen reads only items of the same step (a publish-time rule), so the slice decides what is shown.
  const { missing } = evaluate(slice, answers, { asOf });
  if (missing.length) refuse(missing.map((l) => ({ param: `answers.${l}`, message: `Item "${l}" is required on this step.` })), 'answer_required');
  return answers;
}

function quizMisfit(q: QuizQuestionShape, value: unknown): string | null {
  const options = new Set((q.options ?? []).map((o) => o.value));
  switch (q.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : 'true or false';
    case 'choice':
      return typeof value === 'string' && options.has(value) ? null : 'one of its option values';
    case 'multi_choice':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && options.has(v)) && new Set(value).size === value.length
        ? null
        : 'a list of its option values without repeats';
    case 'string':
      return typeof value === 'string' && value.length <= 500 ? null : 'text of at most 500 characters';
  }
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

function quiz(questions: QuizQuestionShape[], answers: Answers): Answers {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const problems: Problem[] = [];
  for (const q of questions) {
    const value = answers[q.id];
    if (blank(value)) {
      if (q.required) problems.push({ param: `answers.${q.id}`, message: `Question "${q.id}" is required.` });
      continue;
    }
    const misfit = quizMisfit(q, value);
    if (misfit) problems.push({ param: `answers.${q.id}`, message: `The answer to question "${q.id}" must be ${misfit}.` });
  }
  for (const key of Object.keys(answers)) if (!byId.has(key)) problems.push(unknownKey(key));
  if (problems.length) refuse(problems);
  return answers;
}

function consent(step: ConsentStepShape, answers: Answers): Answers {
  const problems: Problem[] = [];
  if (answers.accepted !== true) problems.push({ param: 'answers.accepted', message: 'The consent must be accepted (accepted: true).' });
  if (answers.version !== step.version) problems.push({ param: 'answers.version', message: 'The consent version must be the one shown on this step.' });
  for (const key of Object.keys(answers)) if (key !== 'accepted' && key !== 'version') problems.push(unknownKey(key));
  if (problems.length) refuse(problems);
  return { accepted: true, version: step.version };
}

// Built once: building a zod schema costs more than the check itself (it was built on every contact step).
const EMAIL = z.email();
const isEmail = (v: unknown) => typeof v === 'string' && v.length <= 254 && EMAIL.safeParse(v).success;
const text = (max: number) => (v: unknown) => typeof v === 'string' && v.trim().length > 0 && v.length <= max;
const CONTACT_CHECKS: Record<string, [(v: unknown) => boolean, string]> = {
  name: [text(200), 'a name of 1 to 200 characters'],
  email: [isEmail, 'an e-mail address'],
  state: [isUsState, 'a two-letter US state'],
  dateOfBirth: [(v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && isPlausibleDateOfBirth(v), 'a real date of birth written YYYY-MM-DD'],
};
// Optional (a blank one is left out), checked when given; the address's state is the contact step's `state`.
const OPTIONAL_CHECKS: Record<string, [(v: unknown) => boolean, string]> = {
  phone: [(v) => typeof v === 'string' && v.length <= 32 && normalisePhone(v) !== null, 'a phone number: +15551234567 or a 10-digit US number'],
  addressLine1: [text(200), 'a street address of at most 200 characters'],
  addressLine2: [text(200), 'an apartment, suite or unit of at most 200 characters'],
  city: [text(100), 'a city of at most 100 characters'],
  postalCode: [(v) => typeof v === 'string' && POSTAL_CODE.test(v.trim()), 'a ZIP code: 12345 or 12345-6789'],
  smsConsent: [(v) => typeof v === 'boolean', 'true or false'],
};
const ADDRESS_REQUIRED = ['addressLine1', 'city', 'postalCode'] as const;

/** The shipping address, when any of its fields was given: street, city and ZIP are then all needed. */
function addressOf(a: Answers, problems: Problem[]): PatientAddress | undefined {
  const given = (k: string) => !blank(a[k]);
  if (!['addressLine1', 'addressLine2', 'city', 'postalCode'].some(given)) return undefined;
  for (const k of ADDRESS_REQUIRED) if (!given(k)) problems.push({ param: `answers.${k}`, message: `The contact field "${k}" is required with a shipping address.` });
  const s = (k: string) => (given(k) ? String(a[k]).trim() : '');
  return { line1: s('addressLine1'), line2: given('addressLine2') ? s('addressLine2') : null, city: s('city'), state: String(a.state), postalCode: s('postalCode'), country: 'US' };
}

/** The contact fields. In sandbox only the state is held: sandbox keeps nothing real about a person. */
function contact(answers: Answers, livemode: boolean): Answers {
  const problems: Problem[] = [];
  for (const [field, [ok, expected]] of Object.entries(CONTACT_CHECKS)) {
    if (!ok(answers[field])) problems.push({ param: `answers.${field}`, message: `The contact field "${field}" must be ${expected}.` });
  }
  for (const [field, [ok, expected]] of Object.entries(OPTIONAL_CHECKS)) {
    if (!blank(answers[field]) && !ok(answers[field])) problems.push({ param: `answers.${field}`, message: `The contact field "${field}" must be ${expected}.` });
  }
  for (const key of Object.keys(answers)) if (!(key in CONTACT_CHECKS) && !(key in OPTIONAL_CHECKS)) problems.push(unknownKey(key));
  const address = addressOf(answers, problems);
  // A consent to texts needs the number they go to (DESIGN decision 41).
  const smsConsent = answers.smsConsent === true;
  if (smsConsent && blank(answers.phone)) problems.push({ param: 'answers.smsConsent', message: 'A consent to text messages needs a phone number: add it, or leave the box unticked.' });
  if (problems.length) refuse(problems);
  const { name, email, state, dateOfBirth } = answers as Record<string, string>;
  // The consent is no fact about the person: sandbox keeps it too, to rehearse texts to its synthetic patient's number.
  if (!livemode) return { state, ...(smsConsent && { smsConsent }) };
  const phone = blank(answers.phone) ? undefined : normalisePhone(String(answers.phone))!;
  return { name: name.trim(), email: normalizeEmail(email), state, dateOfBirth, ...(phone && { phone }), ...(smsConsent && { smsConsent }), ...(address && { address }) };
}

function nothing(answers: Answers): Answers {
  const keys = Object.keys(answers);
  if (keys.length) refuse(keys.map(unknownKey));
  return {};
}

/**
 * A step's held answers as the step takes them, for the session's own resume view (DESIGN decision 44): what was
 * sent, but for the contact step's address, held as one object and sent as flat fields. Sending them again saves
 * the same thing.
 */
export function heldAsSent(step: FlowStepShape, held: Answers): Answers {
  if (step.kind !== 'contact' || !held.address || typeof held.address !== 'object') return held;
  const { address, ...rest } = held as Answers & { address: PatientAddress };
  return {
    ...rest,
    addressLine1: address.line1,
    ...(address.line2 ? { addressLine2: address.line2 } : {}),
    city: address.city,
    postalCode: address.postalCode,
  };
}

export function checkStepAnswers(step: FlowStepShape, answers: Answers, ctx: { questionnaire: QuestionnaireRow; livemode: boolean; asOf: string }): Answers {
  switch (step.kind) {
    case 'medical':
      return medical(step, ctx.questionnaire, answers, ctx.asOf);
    case 'quiz':
      return quiz(step.questions, answers);
    case 'consent':
      return consent(step, answers);
    case 'contact':
      return contact(answers, ctx.livemode);
    case 'landing':
    case 'outcome':
      return nothing(answers);
  }
}
