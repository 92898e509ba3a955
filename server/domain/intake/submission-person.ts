import type { patients } from '@/db/schema';
import { ageOn, bmiOf, dayNumber } from '@/server/domain/intake/shared/derived';
import { DERIVED } from '@/server/domain/intake/shared/shapes';
import { walk } from './condition-walk';
import type { QuestionnaireDocument, QuestionnaireItem } from './questionnaire-schema';

/*
 * The person a provider reviews (DESIGN decision 33), built from the patient record and the submission's
 * answers. PHI through and through: only the console's review page returns it, and only after writing the
 * patient's access log in the same transaction.
 */

type PatientRow = typeof patients.$inferSelect;
type Measure = { value: number; unit: string };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const HEIGHT_UNITS = new Set(['cm', 'in']);
const WEIGHT_UNITS = new Set(['kg', 'lb']);

/** Whole years on `on` (an ISO instant) for a YYYY-MM-DD birth date; null when the date is not one. */
export function ageAt(dateOfBirth: string, on: Date): number | null {
  if (!DATE.test(dateOfBirth)) return null;
  return ageOn(dayNumber(dateOfBirth), dayNumber(on.toISOString().slice(0, 10)));
}

/** The `bmi(height, weight)` the questionnaire's own rules or conditions name, first found; undefined when none. */
function bmiPairNamed(doc: QuestionnaireDocument): [string, string] | undefined {
  let pair: [string, string] | undefined;
  const visit = (cmp: { q: string }) => {
    const m = pair ? null : DERIVED.exec(cmp.q);
    if (m?.[3] === 'bmi') pair = [m[4]!, m[5]!];
  };
  for (const r of doc.rules) walk(r.when, '', visit);
  for (const i of doc.items) if (i.enableWhen) walk(i.enableWhen, '', visit);
  return pair;
}

function measure(item: QuestionnaireItem | undefined, answers: Record<string, unknown>): Measure | undefined {
  const v = item ? answers[item.linkId] : undefined;
  return item?.unit && typeof v === 'number' && v > 0 ? { value: v, unit: item.unit } : undefined;
}

/**
 * BMI when height and weight were answered. The pair is the one the questionnaire's rules compute BMI from
 * (`bmi(h, w)`), else the first answered item measured in cm or in and the first in kg or lb: the units are
 * what make an item a height or a weight, whatever its linkId.
 */
export function bmiOfAnswers(doc: QuestionnaireDocument | undefined, answers: Record<string, unknown>) {
  if (!doc) return null;
  const byId = new Map(doc.items.map((i) => [i.linkId, i]));
  const named = bmiPairNamed(doc);
  let height = named ? measure(byId.get(named[0]), answers) : undefined;
  let weight = named ? measure(byId.get(named[1]), answers) : undefined;
  if (!height || !weight) {
    height = doc.items.filter((i) => i.unit && HEIGHT_UNITS.has(i.unit)).map((i) => measure(i, answers)).find(Boolean);
    weight = doc.items.filter((i) => i.unit && WEIGHT_UNITS.has(i.unit)).map((i) => measure(i, answers)).find(Boolean);
  }
  if (!height || !weight) return null;
  const value = bmiOf(height.value, height.unit, weight.value, weight.unit);
  return value === undefined ? null : { value, height, weight };
}

/**
 * Everything the review page shows of the person behind a submission made at `submittedAt`; `state` is the
 * one the licence check reads (the submission's reconciled state, else the patient's).
 */
export function personOf(p: PatientRow, state: string | null, submittedAt: Date, doc: QuestionnaireDocument | undefined, answers: Record<string, unknown>) {
  return {
    firstName: p.firstName,
    lastName: p.lastName,
    email: p.email,
    dateOfBirth: p.dateOfBirth,
    ageAtSubmission: ageAt(p.dateOfBirth, submittedAt),
    sexAtBirth: p.sex,
    state,
    bmi: bmiOfAnswers(doc, answers),
  };
}
