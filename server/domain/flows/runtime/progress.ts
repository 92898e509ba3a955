import { DISQUALIFIED_MESSAGE, ELIGIBLE_MESSAGE, patientOutcome } from '@/server/domain/intake/patient-outcome';
import type { FlowDocumentShape, OutcomeStepShape } from '@/server/domain/flows/shared/shapes';

/**
 * Where a run stands: the first step, in order, the session has not saved (outcome steps are shown after
 * submit, never saved first), or null when every step is saved and the run is ready to submit.
 */
export function nextStepId(doc: FlowDocumentShape, completed: ReadonlySet<string>): string | null {
  return doc.steps.find((s) => s.kind !== 'outcome' && !completed.has(s.id))?.id ?? null;
}

export type RunVerdict = 'eligible' | 'disqualified' | 'incomplete';

/** What the patient is told: the engine's patient-safe message and the flow's own outcome copy. */
export interface SessionOutcome {
  verdict: RunVerdict;
  message: string;
  title: string;
  body: string;
  /** The submission's short reference, for the patient to quote (a recorded run only). */
  reference?: string;
  /** The matched rules' patient messages: the reason of a disqualified run, the review flags of an eligible one. */
  patientMessages?: string[];
}

/** What a recorded run adds to the outcome: its reference and the clinic's patient messages of its rules. */
export function recordedOutcome(
  questionnaire: Parameters<typeof patientOutcome>[0],
  submission: { reference: string | null; verdict: string; hits: string[]; flags: string[] },
): Pick<SessionOutcome, 'reference' | 'patientMessages'> {
  return {
    ...(submission.reference ? { reference: submission.reference } : {}),
    patientMessages: patientOutcome(questionnaire, submission).patientMessages,
  };
}

export const INCOMPLETE_MESSAGE = 'Some required questions are still unanswered. Go back to finish them, then submit again.';

const outcomeStep = (doc: FlowDocumentShape) => doc.steps.findLast((s): s is OutcomeStepShape => s.kind === 'outcome');

/** The clinic's outcome copy for the verdict; a flow without an outcome step gets the engine's message. */
export function sessionOutcome(doc: FlowDocumentShape, verdict: RunVerdict): SessionOutcome {
  if (verdict === 'incomplete') return { verdict, message: INCOMPLETE_MESSAGE, title: 'Almost done', body: INCOMPLETE_MESSAGE };
  const message = verdict === 'eligible' ? ELIGIBLE_MESSAGE : DISQUALIFIED_MESSAGE;
  const blocks = outcomeStep(doc)?.blocks;
  if (!blocks) return { verdict, message, title: 'Thank you', body: message };
  return verdict === 'eligible'
    ? { verdict, message, title: blocks.eligibleTitle, body: blocks.eligibleBody }
    : { verdict, message, title: blocks.disqualifiedTitle, body: blocks.disqualifiedBody };
}
