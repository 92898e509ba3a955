import type { QuestionnaireDocument } from './questionnaire-schema';

/** What a patient is told after submitting: clinic-written copy only, never rule ids or the rules themselves. */
export interface PatientOutcome {
  verdict: 'eligible' | 'disqualified';
  message: string;
  /**
   * The clinic's `patientMessage` of the matched rules, in the questionnaire's rule order, each once: for a
   * disqualified run the disqualifying rules only (the reason; review flags matter to a review that will not
   * happen), for an eligible run its review flags (what the provider will look at).
   */
  patientMessages: string[];
}

export const ELIGIBLE_MESSAGE = 'A provider will review your answers and contact you about the next steps.';
export const DISQUALIFIED_MESSAGE = 'Based on your answers, this treatment is not available to you through this clinic.';

/** The patient's outcome of an evaluated submission (an incomplete one is refused before it is stored). */
export function patientOutcome(doc: QuestionnaireDocument, evaluation: { verdict: string; hits: string[]; flags: string[] }): PatientOutcome {
  const disqualified = evaluation.verdict === 'disqualified';
  const matched = new Set(disqualified ? evaluation.hits : [...evaluation.hits, ...evaluation.flags]);
  const patientMessages = [...new Set(doc.rules.filter((r) => matched.has(r.id)).map((r) => r.patientMessage))];
  return { verdict: disqualified ? 'disqualified' : 'eligible', message: disqualified ? DISQUALIFIED_MESSAGE : ELIGIBLE_MESSAGE, patientMessages };
}
