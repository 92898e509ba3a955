import { DISQUALIFIED_MESSAGE, ELIGIBLE_MESSAGE } from '@/server/domain/intake/patient-outcome';
import type { FlowDocumentShape, OutcomeStepShape } from '@/server/lib/flow-shapes';

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
