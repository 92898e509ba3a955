import type { SubmissionFacts } from '@/db/schema';
import type { Sex } from '@/server/domain/patients/validation';
import { isPlausibleDateOfBirth } from '@/server/domain/patients/validation';
import { normalizeEmail } from '@/server/lib/email';
import { AppError } from '@/server/lib/errors';
import { isUsState } from '@/server/lib/us-states';
import type { IdentityFact, QuestionnaireDocument } from './questionnaire-schema';
import { DERIVED, type Condition } from './questionnaire-schema';

/**
 * Identity facts (DESIGN decision 31): the date of birth, sex at birth and state a person gives in the
 * questionnaire (items declaring `fact`) and again in the contact details must be one person's. They are
 * reconciled before the engine runs: a contact detail that differs from an answered fact is refused (400 naming
 * the field, a message for the patient, nothing saved); one left out is taken from the answer. The engine, the
 * licence check and the patient record then read the same facts.
 */

export interface IdentityFacts {
  dateOfBirth?: string;
  sexAtBirth?: Sex;
  state?: string;
}

const FACT_WORDS: Record<IdentityFact, string> = { dateOfBirth: 'date of birth', sexAtBirth: 'sex at birth', state: 'state' };

/** Every `q` a condition tree reads. */
const operands = (c: Condition): string[] =>
  'all' in c ? c.all.flatMap(operands) : 'any' in c ? c.any.flatMap(operands) : 'not' in c ? operands(c.not) : [c.q];

/** The item holding a fact: the one declaring it; for the date of birth of an older document, the item its age() reads. */
export function factItem(doc: Pick<QuestionnaireDocument, 'items' | 'rules'>, fact: IdentityFact): string | undefined {
  const declared = doc.items.find((i) => i.fact === fact)?.linkId;
  if (declared || fact !== 'dateOfBirth') return declared;
  const conditions = [...doc.rules.map((r) => r.when), ...doc.items.flatMap((i) => (i.enableWhen ? [i.enableWhen] : []))];
  return conditions.flatMap(operands).map((q) => DERIVED.exec(q)?.[2]).find(Boolean);
}

const wellFormed: Record<IdentityFact, (v: unknown) => boolean> = {
  dateOfBirth: (v) => typeof v === 'string' && isPlausibleDateOfBirth(v),
  sexAtBirth: (v) => v === 'female' || v === 'male' || v === 'intersex' || v === 'unknown',
  state: isUsState,
};

/** The facts the answers give (only answers of the right shape count). */
export function answeredFacts(doc: Pick<QuestionnaireDocument, 'items' | 'rules'>, answers: Record<string, unknown>): IdentityFacts {
  const facts: Record<string, unknown> = {};
  for (const fact of ['dateOfBirth', 'sexAtBirth', 'state'] as const) {
    const linkId = factItem(doc, fact);
    const value = linkId !== undefined && Object.hasOwn(answers, linkId) ? answers[linkId] : undefined;
    if (wellFormed[fact](value)) facts[fact] = value;
  }
  return facts as IdentityFacts;
}

/** 400 naming the field whose value differs from an answer given earlier: worded for the patient, no value echoed. */
export function factMismatch(fact: IdentityFact, param: string): AppError {
  const words = FACT_WORDS[fact];
  return new AppError(
    'validation_error',
    'fact_mismatch',
    400,
    `The ${words} here differs from the ${words} given in your answers. Please check both and use the same ${words}.`,
    param,
  );
}

/**
 * Reconciles the facts the answers give with those given elsewhere (the contact step, the submit body, the
 * public `patient`): a value given in both must be the same (`param(fact)` names the refused field); a value
 * given once is the fact. Throws before anything is written.
 */
export function reconcileFacts(answered: IdentityFacts, given: IdentityFacts, param: (fact: IdentityFact) => string): IdentityFacts {
  const out: IdentityFacts = { ...answered };
  for (const fact of ['dateOfBirth', 'sexAtBirth', 'state'] as const) {
    const value = given[fact];
    if (value === undefined) continue;
    if (answered[fact] !== undefined && answered[fact] !== value) throw factMismatch(fact, param(fact));
    (out as Record<string, unknown>)[fact] = value;
  }
  return out;
}

/**
 * The answers the engine reads: a fact item left unanswered takes the reconciled fact, so `age()` reads the
 * same date of birth as the patient record. Answers already given are never replaced (they equal the fact).
 */
export function answersWithFacts(doc: Pick<QuestionnaireDocument, 'items' | 'rules'>, answers: Record<string, unknown>, facts: IdentityFacts): Record<string, unknown> {
  const out = { ...answers };
  for (const fact of ['dateOfBirth', 'sexAtBirth', 'state'] as const) {
    const linkId = factItem(doc, fact);
    const value = facts[fact];
    if (linkId === undefined || value === undefined) continue;
    const item = doc.items.find((i) => i.linkId === linkId);
    // Only where the fact fits the item: a sex of `unknown` is no answer to a choice that does not offer it.
    if (item?.type === 'choice' && !item.options?.some((o) => o.value === value)) continue;
    if (out[linkId] === undefined || out[linkId] === null) out[linkId] = value;
  }
  return out;
}

/** The stored person of a submission (PHI, intake_answers.facts): fields a path did not collect are null. */
export function submissionFacts(person: Partial<SubmissionFacts>, facts: IdentityFacts): SubmissionFacts {
  return {
    name: person.name ?? null,
    email: person.email == null ? null : normalizeEmail(person.email),
    dateOfBirth: facts.dateOfBirth ?? person.dateOfBirth ?? null,
    sexAtBirth: facts.sexAtBirth ?? person.sexAtBirth ?? null,
    state: facts.state ?? person.state ?? null,
    phone: person.phone ?? null,
    address: person.address ?? null,
  };
}
