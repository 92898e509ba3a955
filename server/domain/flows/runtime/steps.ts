import { sql } from 'drizzle-orm';
import type { Db, Queryable } from '@/server/db/types';
import { eventsInsertSql, eventValues, newEvent } from '@/server/domain/events/emit';
import { asOfDay } from '@/server/domain/intake/submissions-create';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { countCtes, countedValues, countValues, VIEW_MARK } from './counting';
import { loadPinnedVersion } from './pinned-version';
import { nextStepId } from './progress';
import type { SessionIdentity } from './session-cache';
import { armDocumentOf, completedStepIds, heldSteps, requireSession, sessionOf, type FlowEmbed } from './sessions';
import { contactWithFacts } from './contact-facts';
import { checkStepAnswers } from './step-answers';
import { namedStatement } from '@/server/db/named-sql';

export const sessionCompleted = () => errors.conflict('This session has been submitted; start a new session to answer again.', 'session_completed');

const p = sql.placeholder;
const open = sql`exists (select 1 from open_session)`;

/**
 * Holds a step's answers in one statement, without a transaction (docs/decisions/performance.md,
 * "Public runtime: statements per request"): it locks the session row while the session is open and unexpired, merges the answers
 * into the held ones (replacing an earlier save of the step; the upsert works on the newest row, whatever the
 * statement's snapshot), emits `step.completed` on the step's first save only (the `saved:` mark's insert
 * decides, so two saves racing emit it once), counts the completion (`completes`: false for the outcome page,
 * whose completion is the submit) and counts the session as viewed: a session that saved a step was seen,
 * beacon or not (DESIGN decision 34; the `view` mark a `view` beacon shares, so once). Null when the session
 * was not open: nothing was written. Else the ids of every step held now.
 */
const holdStatement = namedStatement((shape: 'completes' | 'held') => sql`
    with open_session as (
      select 1 from flow_sessions
      where tenant_id = ${p('s.tenantId')} and livemode = ${p('s.livemode')} and id = ${p('s.sessionId')} and status = 'open' and expires_at > ${p('s.at')}
      for update
    ), merged as (
      insert into flow_session_answers (session_id, tenant_id, livemode, steps, updated_at)
      select ${p('s.sessionId')}::text, ${p('s.tenantId')}::text, ${p('s.livemode')}::boolean, ${p('step.held')}::jsonb, ${p('s.at')}::timestamptz from open_session
      on conflict (session_id) do update set steps = flow_session_answers.steps || excluded.steps, updated_at = excluded.updated_at
      returning steps
    ), first_save as (
      insert into flow_session_marks (session_id, mark, created_at) select ${p('s.sessionId')}::text, ${p('step.savedMark')}::text, ${p('s.at')}::timestamptz from open_session
      on conflict do nothing returning 1
    ), logged as (
      ${eventsInsertSql(['stepCompleted'], sql`exists (select 1 from first_save)`)} returning 1
    ), ${countCtes('views', { as: 'viewed', when: open })}${shape === 'completes' ? sql`, ${countCtes('completes', { when: open })}` : sql``}
    select (select array(select jsonb_object_keys(steps)) from merged) as step_ids, (select count(*) from logged)::int as logged
  `);

async function holdStep(db: Queryable, session: SessionIdentity, stepId: string, held: Record<string, unknown>, at: Date, completes: boolean): Promise<string[] | null> {
  const stepCompleted = newEvent('step.completed', { flowId: session.flowId, sessionId: session.id, stepId });
  const result = await holdStatement.execute<{ step_ids: string[] | null }>(db, completes ? 'completes' : 'held', {
    s: countedValues(session, at),
    step: { held: JSON.stringify({ [stepId]: held }), savedMark: `saved:${stepId}` },
    stepCompleted: eventValues(stepCompleted),
    viewed: countValues(VIEW_MARK),
    ...(completes && { count: countValues(`completed:${stepId}`, stepId) }),
  });
  return result.rows[0]?.step_ids ?? null;
}

export interface StepInput {
  stepId: string;
  answers: Record<string, unknown>;
}

/**
 * POST …/sessions/{id}/steps: checks the step's answers, holds them (PHI table, replacing an earlier save of
 * the step), and on the first save of the step emits `step.completed` and counts the completion (for a
 * presentation step, the mark its `step_completed` beacon shares; a clinical step is completed by its save
 * alone). No verdict: eligibility is decided at submit only.
 */
export async function saveStep(db: Db, embed: FlowEmbed, sessionId: string, input: StepInput) {
  const { session, completed } = await sessionOf(db, embed, sessionId);
  if (completed) throw sessionCompleted();
  const pinned = await loadPinnedVersion(db, embed, session.flowVersionId);
  const at = now();
  let step, held;
  try {
    step = pinned.version.document.steps.find((s) => s.id === input.stepId);
    if (!step) throw errors.validation('This flow has no step with this id.', 'stepId');
    // The contact details are reconciled with the facts already answered (DESIGN decision 31): the one read of
    // held answers a step save makes, for the contact step only.
    const answers = step.kind === 'contact' ? contactWithFacts(pinned, await heldSteps(db, session), input.answers) : input.answers;
    held = checkStepAnswers(step, answers, { questionnaire: pinned.questionnaire, livemode: embed.livemode, asOf: asOfDay(at) });
  } catch (invalid) {
    return refused(db, embed, sessionId, invalid);
  }
  const stepIds = await holdStep(db, session, step.id, held, at, step.kind !== 'outcome');
  if (!stepIds) return refused(db, embed, sessionId, errors.notFound('flow session'));

  // The next step in the order of the session's arm (an experiment may reorder presentation steps).
  const document = await armDocumentOf(db, embed, session, pinned);
  const done = new Set(completedStepIds(document, Object.fromEntries(stepIds.map((id) => [id, true]))));
  return { ok: true as const, nextStepId: nextStepId(document, done) };
}

/**
 * What a refused save answers, as when the session was read first: 409 once submitted (perhaps by another
 * process since), 404 once expired, else `refusal` (the step's 400, or 404 for a session gone meanwhile).
 */
async function refused(db: Db, embed: FlowEmbed, sessionId: string, refusal: unknown): Promise<never> {
  if ((await requireSession(db, embed, sessionId)).status === 'completed') throw sessionCompleted();
  throw refusal;
}
