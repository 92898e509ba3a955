import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { flows, flowSessionAnswers, flowSessions, intakeSubmissions, type DunningStage } from '@/db/schema';
import { prepared } from '@/server/db/prepared';
import { scoped, scopedStatement, type Scope, type ScopedTable } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { eventsInsertSql, eventValues, newEvent } from '@/server/domain/events/emit';
import { readAccount } from '@/server/domain/billing/accounts';
import { billingRefusal } from '@/server/domain/billing/enforcement';
import { effectiveStage } from '@/server/domain/billing/stages';
import { assignArm, sessionDocument, type RunningExperimentRef } from '@/server/domain/experiments/arms';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import type { FlowDocumentShape } from '@/server/domain/flows/shared/shapes';
import { newSecretId } from '@/server/lib/ids';
import { countCtes, countedValues, countValues } from './counting';
import { loadPinnedVersion, type PinnedVersion } from './pinned-version';
import { nextStepId, recordedOutcome, sessionOutcome, type SessionOutcome } from './progress';
import { publicDefinition, type PublicFlowDefinition } from './public-definition';
import { knownSession, rememberSession, type KnownSession, type SessionIdentity } from './session-cache';
import { heldAsSent } from './step-answers';
import { namedStatement } from '@/server/db/named-sql';

export type FlowSessionRow = typeof flowSessions.$inferSelect;

/** What the embed key behind a public flow call allows (DESIGN decision 17). */
export interface FlowEmbed extends Scope {
  keyId: string;
  flowId: string | null;
  /** Set by the embed middleware, which resolved the key with its flow in this request (active, published at this version). */
  activeVersionId?: string | null;
  /** Set by the embed middleware too: the dunning stage read with the key, in the same statement. */
  billingStage?: DunningStage;
  /** And the experiment running on the flow (null: none); undefined when not looked up with the key. */
  runningExperiment?: RunningExperimentRef | null;
}

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

// Never the id in the message: a session id is the bearer secret of the patient's run.
const sessionNotFound = () => errors.notFound('flow session');

/** The flow the key serves, when it is active and published; anything else is the same 404. */
async function servedFlow(q: Queryable, embed: FlowEmbed): Promise<{ id: string; activeVersionId: string }> {
  // Already checked with the key, in the same statement (docs/decisions/performance.md, "Public runtime: statements per request").
  if (embed.flowId && embed.activeVersionId) return { id: embed.flowId, activeVersionId: embed.activeVersionId };
  const flow = embed.flowId ? await scoped(q, embed).get(flows, embed.flowId) : undefined;
  if (!flow || flow.status !== 'active' || !flow.activeVersionId) throw errors.notFound('flow');
  return { id: flow.id, activeVersionId: flow.activeVersionId };
}

export interface PublicFlow extends PublicFlowDefinition {
  sandbox: boolean;
}

// One frozen object per (cached definition, mode): served as is, so the response check trusts it once checked.
const served = { true: new WeakMap<PublicFlowDefinition, PublicFlow>(), false: new WeakMap<PublicFlowDefinition, PublicFlow>() };
function withSandbox(embed: FlowEmbed, definition: PublicFlowDefinition): PublicFlow {
  const byMode = served[`${!embed.livemode}`];
  let flow = byMode.get(definition);
  if (!flow) byMode.set(definition, (flow = Object.freeze({ ...definition, sandbox: !embed.livemode })));
  return flow;
}

/** What a session's arm is served: the variant's document on its version, else the version's own. */
const armDefinition = (pinned: PinnedVersion, arm: { experimentId: string | null; variantKey: string | null }, document: FlowDocumentShape) =>
  arm.variantKey === 'variant' && arm.experimentId ? publicDefinition(pinned, { key: arm.experimentId, document }) : publicDefinition(pinned);

/** The document of a session's arm (DESIGN decision 27): the step order, copy and outcome copy it is shown. */
export const armDocumentOf = (q: Queryable, embed: FlowEmbed, session: SessionIdentity, pinned: PinnedVersion) => sessionDocument(q, embed, session, pinned.version);

/** GET /public/flows/{embedKey}: the active version's patient-safe definition. */
export async function getPublicFlow(db: Db, embed: FlowEmbed): Promise<PublicFlow> {
  const flow = await servedFlow(db, embed);
  return withSandbox(embed, publicDefinition(await loadPinnedVersion(db, embed, flow.activeVersionId)));
}

/**
 * A session of this key within its tenant and mode, not expired; another key's, an expired or an unknown
 * session is the same 404. `lock` holds the row for the caller's transaction (step saves and submit of one
 * session then run one after the other).
 */
export async function requireSession(q: Queryable, embed: FlowEmbed, id: string, opts: { lock?: boolean } = {}): Promise<FlowSessionRow> {
  const [row] = (await scoped(q, embed).run(opts.lock ? sessionLocked : sessionRead, { id })) as FlowSessionRow[];
  if (!row || !servesSession(embed, row)) throw sessionNotFound();
  rememberSession(row);
  return row;
}

/** The key's own session, within its tenant and mode, not expired. */
const servesSession = (embed: FlowEmbed, s: SessionIdentity) =>
  s.tenantId === embed.tenantId && s.livemode === embed.livemode && s.embedKeyId === embed.keyId && s.flowId === embed.flowId && s.expiresAt.getTime() > now().getTime();

/**
 * A session of this key for a write that checks the session's state in its own statement (beacons, step
 * saves): from the process's memory when it has seen the session, else read (docs/decisions/performance.md,
 * "Public runtime: statements per request"). The same 404 as `requireSession` for anything not the key's.
 */
export async function sessionOf(q: Queryable, embed: FlowEmbed, id: string): Promise<KnownSession> {
  const hit = knownSession(id);
  if (!hit) {
    const row = await requireSession(q, embed, id);
    return { session: row, completed: row.status === 'completed' };
  }
  if (!servesSession(embed, hit.session)) throw sessionNotFound();
  return hit;
}

// Rendered once (server/db/prepared.ts): a session read is on every beacon, step save and submit.
const sessionQuery = (own: (t: ScopedTable) => SQL, db: Queryable) =>
  db
    .select()
    .from(flowSessions)
    .where(and(own(flowSessions), eq(flowSessions.id, sql.placeholder('id'))))
    .limit(1);
const sessionRead = scopedStatement(sessionQuery);
const sessionLocked = scopedStatement((own, db) => sessionQuery(own, db).for('update'));

/** The session's row of held answers, within its tenant and mode (the table is keyed by session, not `id`). */
export const heldAnswersOf = (session: { id: string | Placeholder; tenantId: string | Placeholder; livemode: boolean | Placeholder }) =>
  and(eq(flowSessionAnswers.tenantId, session.tenantId), eq(flowSessionAnswers.livemode, session.livemode), eq(flowSessionAnswers.sessionId, session.id));

/** The held answers by step (PHI; given back only to the session itself, `answersShown`), empty before the first saved step. */
export async function heldSteps(q: Queryable, session: Pick<FlowSessionRow, 'id' | 'tenantId' | 'livemode'>): Promise<Record<string, Record<string, unknown>>> {
  const [row] = await heldStepsStatement.execute(q, { tenantId: session.tenantId, livemode: session.livemode, id: session.id });
  return row?.steps ?? {};
}
// Rendered once (server/db/prepared.ts): the contact step and every submit read it.
const heldStepsStatement = prepared((q: Queryable) =>
  q
    .select({ steps: flowSessionAnswers.steps })
    .from(flowSessionAnswers)
    .where(heldAnswersOf({ tenantId: sql.placeholder('tenantId'), livemode: sql.placeholder('livemode'), id: sql.placeholder('id') }))
    .limit(1),
);

// Rendered once (server/db/prepared.ts), as `heldStepsStatement`, with the time of the last save.
const savedAnswersStatement = prepared((q: Queryable) =>
  q
    .select({ steps: flowSessionAnswers.steps, savedAt: flowSessionAnswers.updatedAt })
    .from(flowSessionAnswers)
    .where(heldAnswersOf({ tenantId: sql.placeholder('tenantId'), livemode: sql.placeholder('livemode'), id: sql.placeholder('id') }))
    .limit(1),
);

/**
 * How long after its last save a session's answers are still given back to it (DESIGN decision 44): long enough
 * for a refresh, a discarded tab or a call taken in between; short enough that a device left behind with the
 * session id in its storage shows nobody's answers for long.
 */
export const ANSWERS_SHOWN_MS = 30 * 60 * 1000;

type HeldByStep = Record<string, Record<string, unknown>>;

/**
 * The answers a session's own resume view gives back, by step in the order of its arm, as each step takes them
 * (DESIGN decision 44): only while the session is open and its last save is under `ANSWERS_SHOWN_MS` old, else
 * null. Only `getSessionView` calls it, which only the session's id (its bearer secret) reaches.
 */
function answersShown(document: FlowDocumentShape, session: FlowSessionRow, saved: { steps: HeldByStep; savedAt: Date } | undefined, at: Date): HeldByStep | null {
  if (!saved || session.status !== 'open' || at.getTime() - saved.savedAt.getTime() >= ANSWERS_SHOWN_MS) return null;
  const shown: HeldByStep = {};
  for (const step of document.steps) if (Object.hasOwn(saved.steps, step.id)) shown[step.id] = heldAsSent(step, saved.steps[step.id]!);
  return shown;
}

export interface SessionInput {
  variant?: string;
  campaign?: string;
}

/**
 * POST /public/flows/{embedKey}/sessions: a session pinned to the flow's active version for 24 h, `flow.viewed`
 * and the `sessions` count, together. With an experiment running, the session's arm is its bucket
 * (DESIGN decision 27; the `variant` hint never chooses), stamped on the session, exposed once
 * (`experiment.exposed`) and counted under that arm; the definition is the arm's. One write statement, so no
 * transaction is needed for the three to commit together.
 * A clinic restricted or suspended for an overdue payment starts no new session (decision 29; the patient is
 * told nothing of billing: `flow_unavailable`, decision 35); sessions already started step and submit as before.
 */
export async function createSession(db: Db, embed: FlowEmbed, input: SessionInput) {
  const stage = embed.billingStage ?? effectiveStage(await readAccount(db, embed), now());
  const refusal = billingRefusal(stage, 'new_flow_session', 'patient');
  if (refusal) throw refusal;
  const flow = await servedFlow(db, embed);
  const pinned = await loadPinnedVersion(db, embed, flow.activeVersionId);
  const at = now();
  const id = newSecretId('flowSession');
  const assigned = await assignArm(db, embed, flow.id, id, pinned.version, embed.runningExperiment);
  const session: FlowSessionRow = {
    id,
    tenantId: embed.tenantId,
    livemode: embed.livemode,
    flowId: flow.id,
    flowVersionId: pinned.version.id,
    embedKeyId: embed.keyId,
    experimentId: assigned?.experimentId ?? null,
    variantKey: assigned?.arm ?? null,
    status: 'open',
    verdict: null,
    submissionId: null,
    campaign: input.campaign ?? null,
    checkoutCompletedAt: null,
    externalOrderId: null,
    expiresAt: new Date(at.getTime() + SESSION_TTL_MS),
    completedAt: null,
    createdAt: at,
    updatedAt: at,
  };
  const viewed = newEvent('flow.viewed', { flowId: flow.id, sessionId: id, flowVersionId: pinned.version.id });
  const exposed = assigned && newEvent('experiment.exposed', { flowId: flow.id, sessionId: id, experimentId: assigned.experimentId, variantKey: assigned.arm });
  // The session, its events and the `sessions` count in one statement, atomic without a transaction
  // (docs/decisions/performance.md, "Public runtime: statements per request"); the experiment read before it needs none.
  await createStatement.execute(db, exposed ? 'exposed' : 'viewed', {
    row: session,
    s: countedValues(session, at),
    viewed: eventValues(viewed),
    ...(exposed && { exposed: eventValues(exposed) }),
    count: countValues('session'),
  });
  rememberSession(session);
  return {
    sessionId: session.id,
    versionId: pinned.version.id,
    expiresAt: session.expiresAt.toISOString(),
    arm: session.variantKey,
    variantKey: session.variantKey,
    definition: withSandbox(embed, armDefinition(pinned, session, assigned?.document ?? pinned.version.document)),
  };
}

const p = sql.placeholder;
const SESSION_COLUMNS = ['id', 'tenantId', 'livemode', 'flowId', 'flowVersionId', 'embedKeyId', 'experimentId', 'variantKey', 'status', 'campaign', 'expiresAt', 'createdAt', 'updatedAt'] as const;
/** A new session's insert, every column named (the rest are null until submit or checkout), filled by the `row` group (the row). */
const insertSessionSql = sql`
  insert into flow_sessions (id, tenant_id, livemode, flow_id, flow_version_id, embed_key_id, experiment_id, variant_key, status, campaign, expires_at, created_at, updated_at)
  values (${sql.join(SESSION_COLUMNS.map((c) => p(`row.${c}`)), sql`, `)})
  returning 1`;

/** The session, its events (`flow.viewed`, and `experiment.exposed` when an arm was assigned) and the `sessions` count. */
const createStatement = namedStatement((shape: 'viewed' | 'exposed') => sql`
    with created as (${insertSessionSql}), logged as (${eventsInsertSql(shape === 'exposed' ? ['viewed', 'exposed'] : ['viewed'])} returning 1), ${countCtes('sessions')}
    select (select count(*) from created)::int as created
  `);

export interface SessionView {
  sessionId: string;
  versionId: string;
  status: FlowSessionRow['status'];
  completedStepIds: string[];
  nextStepId: string | null;
  arm: 'control' | 'variant' | null;
  variantKey: string | null;
  definition: PublicFlow;
  outcome: SessionOutcome | null;
  answers: HeldByStep | null;
}

/** The step ids a session has saved, in the step order of its arm's document. */
export const completedStepIds = (document: FlowDocumentShape, held: Record<string, unknown>) => document.steps.map((s) => s.id).filter((id) => id in held);

/**
 * GET /public/flows/{embedKey}/sessions/{id}: where a run stands, to resume it after a refresh, with the answers
 * the session saved while it is open and its last save is recent (`answersShown`): the page shows them again.
 */
export async function getSessionView(db: Db, embed: FlowEmbed, id: string): Promise<SessionView> {
  const session = await requireSession(db, embed, id);
  const pinned = await loadPinnedVersion(db, embed, session.flowVersionId);
  const [saved] = await savedAnswersStatement.execute(db, { tenantId: session.tenantId, livemode: session.livemode, id: session.id });
  const held = saved?.steps ?? {};
  const document = await armDocumentOf(db, embed, session, pinned);
  const completed = completedStepIds(document, held);
  const done = session.status === 'completed';
  return {
    sessionId: session.id,
    versionId: session.flowVersionId,
    status: session.status,
    completedStepIds: completed,
    nextStepId: done ? null : nextStepId(document, new Set(completed)),
    arm: session.variantKey,
    variantKey: session.variantKey,
    definition: withSandbox(embed, armDefinition(pinned, session, document)),
    outcome: done && session.verdict ? { ...sessionOutcome(document, session.verdict), ...(await recordedRun(db, embed, session, pinned)) } : null,
    answers: answersShown(document, session, saved, now()),
  };
}

/** A completed session's reference and patient messages, read back from its submission (no answers). */
async function recordedRun(q: Queryable, embed: FlowEmbed, session: FlowSessionRow, pinned: PinnedVersion) {
  const submission = session.submissionId ? await scoped(q, embed).get(intakeSubmissions, session.submissionId) : undefined;
  return submission ? recordedOutcome(pinned.questionnaire.document, submission) : {};
}
