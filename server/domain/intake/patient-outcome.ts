import type { QuestionnaireDocument } from './questionnaire-schema';

/** What a patient is told after submitting: clinic-written copy only, never rule ids or the rules themselves. */
export interface PatientOutcome {
  verdict: 'eligible' | 'disqualified';
  message: string;
  /** The clinic's `patientMessage` of every matched rule, in the questionnaire's rule order. */
  patientMessages: string[];
}

export const ELIGIBLE_MESSAGE = 'A provider will review your answers and contact you about the next steps.';
export const DISQUALIFIED_MESSAGE = 'Based on your answers, this treatment is not available to you through this clinic.';

/** The patient's outcome of an evaluated submission (an incomplete one is refused before it is stored). */
export function patientOutcome(doc: QuestionnaireDocument, evaluation: { verdict: string; hits: string[]; flags: string[] }): PatientOutcome {
  const matched = new Set([...evaluation.hits, ...evaluation.flags]);
  const patientMessages = [...new Set(doc.rules.filter((r) => matched.has(r.id)).map((r) => r.patientMessage))];
  const disqualified = evaluation.verdict === 'disqualified';
  return { verdict: disqualified ? 'disqualified' : 'eligible', message: disqualified ? DISQUALIFIED_MESSAGE : ELIGIBLE_MESSAGE, patientMessages };
}
