import { sql } from 'drizzle-orm';
import { flowSessionAnswers } from '@/db/schema';
import type { Db } from '@/server/db/types';
import { emitEvent } from '@/server/domain/events/emit';
import { asOfDay } from '@/server/domain/intake/submissions-create';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { countOnce } from './counting';
import { loadPinnedVersion } from './pinned-version';
import { nextStepId } from './progress';
import { armDocumentOf, completedStepIds, heldSteps, requireSession, type FlowEmbed } from './sessions';
import { checkStepAnswers } from './step-answers';

export const sessionCompleted = () => errors.conflict('This session has been submitted; start a new session to answer again.', 'session_completed');

export interface StepInput {
  stepId: string;
  answers: Record<string, unknown>;
}

/**
 * POST …/sessions/{id}/steps: checks the step's answers, holds them (PHI table, replacing an earlier save of
 * the step), and on the first save of the step emits `step.completed` and counts the completion (the mark the
 * `step_completed` beacon shares). No verdict: eligibility is decided at submit only.
 */
export async function saveStep(db: Db, embed: FlowEmbed, sessionId: string, input: StepInput) {
  return db.transaction(async (tx) => {
    const session = await requireSession(tx, embed, sessionId, { lock: true });
    if (session.status === 'completed') throw sessionCompleted();
    const pinned = await loadPinnedVersion(tx, embed, session.flowVersionId);
    const step = pinned.version.document.steps.find((s) => s.id === input.stepId);
    if (!step) throw errors.validation('This flow has no step with this id.', 'stepId');
    const at = now();
    const held = checkStepAnswers(step, input.answers, { questionnaire: pinned.questionnaire, livemode: embed.livemode, asOf: asOfDay(at) });

    const steps = await heldSteps(tx, session);
    const firstSave = !(step.id in steps);
    const saved = { [step.id]: held };
    await tx
      .insert(flowSessionAnswers)
      .values({ sessionId: session.id, tenantId: session.tenantId, livemode: session.livemode, steps: saved, updatedAt: at })
      .onConflictDoUpdate({ target: flowSessionAnswers.sessionId, set: { steps: sql`${flowSessionAnswers.steps} || excluded.steps`, updatedAt: at } });
    if (firstSave) await emitEvent(tx, embed, 'step.completed', { flowId: session.flowId, sessionId: session.id, stepId: step.id });
    await countOnce(tx, session, `completed:${step.id}`, 'completes', at, step.id);

    // The next step in the order of the session's arm (an experiment may reorder presentation steps).
    const document = await armDocumentOf(tx, embed, session, pinned);
    const completed = new Set(completedStepIds(document, { ...steps, ...saved }));
    return { ok: true as const, nextStepId: nextStepId(document, completed) };
  });
}
