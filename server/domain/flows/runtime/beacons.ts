import type { Db } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import type { FlowStepShape } from '@/server/domain/flows/shared/shapes';
import { countOnce, VIEW_MARK, type FlowCounter } from './counting';
import { loadPinnedVersion } from './pinned-version';
import { sessionOf, type FlowEmbed } from './sessions';

/** The closed vocabulary of public beacons (spec "Delivery" 8): no answers, e-mail or health context. */
export const BEACON_TYPES = ['view', 'step_viewed', 'step_completed'] as const;
export type BeaconType = (typeof BEACON_TYPES)[number];

const COUNTS: Record<BeaconType, { mark: (stepId: string) => string; counter: FlowCounter }> = {
  view: { mark: () => VIEW_MARK, counter: 'views' },
  step_viewed: { mark: (stepId) => `viewed:${stepId}`, counter: 'stepViews' },
  // The same mark as a saved step: a step is completed once per session, however it was reported.
  step_completed: { mark: (stepId) => `completed:${stepId}`, counter: 'completes' },
};

/**
 * Whether a `step_completed` beacon is what completes this step (DESIGN decision 34): only for a presentation
 * page a patient reads (landing, quiz). A clinical step is completed by its server-side save and the outcome
 * page by the submit; a beacon naming either is acknowledged and counts nothing, so no client can inflate them.
 */
const beaconCompletes = (step: FlowStepShape) => step.kind === 'landing' || step.kind === 'quiz';

/**
 * POST …/sessions/{id}/events: accepted on every retry (also once the session is submitted), counted once per
 * session (and step) through its mark, in the same statement as the aggregate's bump (DESIGN decision 26).
 */
export async function recordBeacon(db: Db, embed: FlowEmbed, sessionId: string, input: { type: BeaconType; stepId?: string }) {
  // No transaction: the mark and the aggregate's bump are one statement, atomic by itself (and nothing else is written).
  // The session may be submitted: a late beacon still counts (its mark was never landed, or lands nothing).
  const { session } = await sessionOf(db, embed, sessionId);
  let stepId = '';
  if (input.type !== 'view') {
    if (!input.stepId) throw errors.validation(`A ${input.type} event names its step.`, 'stepId', 'parameter_missing');
    const pinned = await loadPinnedVersion(db, embed, session.flowVersionId);
    const step = pinned.version.document.steps.find((s) => s.id === input.stepId);
    if (!step) throw errors.validation('This flow has no step with this id.', 'stepId');
    if (input.type === 'step_completed' && !beaconCompletes(step)) return { ok: true as const };
    stepId = step.id;
  }
  const { mark, counter } = COUNTS[input.type];
  await countOnce(db, session, mark(stepId), counter, now(), stepId);
  return { ok: true as const };
}
