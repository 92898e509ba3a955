import { sql } from 'drizzle-orm';
import { flowSessionAnswers } from '@/db/schema';
import type { Db, Tx } from '@/server/db/types';
import { eventsInsertSql, newEvent } from '@/server/domain/events/emit';
import { asOfDay } from '@/server/domain/intake/submissions-create';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { countCtes } from './counting';
import { loadPinnedVersion } from './pinned-version';
import { nextStepId } from './progress';
import { armDocumentOf, completedStepIds, heldAnswersOf, requireSession, type FlowEmbed, type FlowSessionRow } from './sessions';
import { checkStepAnswers } from './step-answers';

export const sessionCompleted = () => errors.conflict('This session has been submitted; start a new session to answer again.', 'session_completed');

/**
 * Merges `saved` into the session's held answers, emits `events` unless the step was held already, and counts
 * the step's completion, in one statement (docs/decisions.md, Issue 23: performance of the public runtime);
 * returns what was held before. Runs after the session's row lock, so the CTE's snapshot already sees the
 * answers of any save that held the lock before this one.
 */
async function holdStep(tx: Tx, embed: FlowEmbed, session: FlowSessionRow, stepId: string, held: Record<string, unknown>, at: Date) {
  const saved = { [stepId]: held };
  const notHeldBefore = sql`not exists (select 1 from before where before.steps ? ${stepId})`;
  const stepCompleted = newEvent('step.completed', { flowId: session.flowId, sessionId: session.id, stepId });
  const result = (await tx.execute(sql`
    with before as (
      select ${flowSessionAnswers.steps} as steps from ${flowSessionAnswers} where ${heldAnswersOf(session)}
    ), merged as (
      insert into flow_session_answers (session_id, tenant_id, livemode, steps, updated_at)
      values (${session.id}, ${session.tenantId}, ${session.livemode}, ${JSON.stringify(saved)}::jsonb, ${at})
      on conflict (session_id) do update set steps = flow_session_answers.steps || excluded.steps, updated_at = excluded.updated_at
      returning 1
    ), logged as (
      ${eventsInsertSql(embed, [stepCompleted], notHeldBefore)} returning 1
    ), ${countCtes(session, `completed:${stepId}`, 'completes', at, stepId)}
    select (select steps from before) as steps, (select count(*) from merged)::int as merged, (select count(*) from logged)::int as logged
  `)) as unknown as { rows: { steps: Record<string, Record<string, unknown>> | string | null }[] };
  const steps = result.rows[0]?.steps ?? null;
  return ((typeof steps === 'string' ? JSON.parse(steps) : steps) ?? {}) as Record<string, Record<string, unknown>>;
}

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

    const steps = await holdStep(tx, embed, session, step.id, held, at);

    // The next step in the order of the session's arm (an experiment may reorder presentation steps).
    const document = await armDocumentOf(tx, embed, session, pinned);
    const completed = new Set(completedStepIds(document, { ...steps, [step.id]: held }));
    return { ok: true as const, nextStepId: nextStepId(document, completed) };
  });
}
