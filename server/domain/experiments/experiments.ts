import { and, eq } from 'drizzle-orm';
import { experiments, flows, flowVersions } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { assertBillingAllows } from '@/server/domain/billing/enforcement';
import { announcePublicChange } from '@/server/domain/embed/public-changes';
import { actorOf, lockFlow, refuseArchived, type Actor } from '@/server/domain/flows/flows';
import { toFlowDtoOne } from '@/server/domain/flows/flow-view';
import { now } from '@/server/lib/clock';
import { AppError, errors } from '@/server/lib/errors';
import type { ExperimentOverrideShape } from '@/server/domain/flows/shared/shapes';
import { newId } from '@/server/lib/ids';
import type { ExperimentRow } from './arms';
import { toBasisPoints, toSplitPct, type Arm } from './assignment';
import { applyOverrides } from './overrides';
import { experimentResults, type ExperimentResults } from './results';

/**
 * Experiments on flows (spec "Flows: analytics and experiments", DESIGN decision 27): start one on a flow's
 * presentation plane, list them with live results, stop one (recording a winner, promoting nothing), and fold
 * the variant's overrides into the draft, to be published like any edit.
 */

export interface ExperimentInput {
  name: string;
  splitPct: number;
  overrides: ExperimentOverrideShape[];
}

export function toExperimentDto(row: ExperimentRow, live: ExperimentResults) {
  return {
    id: row.id,
    object: 'experiment' as const,
    flowId: row.flowId,
    flowVersionId: row.flowVersionId,
    name: row.name,
    status: row.status,
    splitPct: toSplitPct(row.splitBasisPoints),
    overrides: row.overrides,
    winnerVariant: row.winnerVariant,
    livemode: row.livemode,
    startedAt: row.startedAt.toISOString(),
    stoppedAt: row.stoppedAt?.toISOString() ?? null,
    foldedInAt: row.foldedInAt?.toISOString() ?? null,
    ...live,
  };
}
export type ExperimentDto = ReturnType<typeof toExperimentDto>;

const alreadyRunning = () => errors.conflict('Another experiment is running on this flow; stop it before starting a new one.', 'experiment_running');

function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code === '23505') return true;
  }
  return false;
}

async function withResults(q: Queryable, scope: Scope, flowId: string, rows: ExperimentRow[]): Promise<ExperimentDto[]> {
  const live = await experimentResults(q, scope, flowId, rows);
  return rows.map((r) => toExperimentDto(r, live.get(r.id)!));
}

/**
 * POST /flows/{id}/experiments: the overrides are checked against the active version's document (else the
 * draft's, for a flow not published yet); a bad one is 400 naming `overrides.<i>…` and nothing is created.
 * The flow row is locked, so experiment starts of one flow take turns with each other and with publication;
 * the partial unique index (one running per flow) still decides any race, as the same 409.
 */
export async function createExperiment(db: Db, actor: Actor, flowId: string, input: ExperimentInput): Promise<ExperimentDto> {
  try {
    return await db.transaction(async (tx) => {
      // Stopping, folding in and reading experiments stay open; only a new one is refused (decision 29, DEGRADE).
      await assertBillingAllows(tx, actor, 'new_experiment');
      const flow = await lockFlow(tx, actor, flowId);
      refuseArchived(flow);
      const version = flow.activeVersionId ? await scoped(tx, actor).require(flowVersions, flow.activeVersionId, 'flow version') : null;
      applyOverrides(version?.document ?? flow.draft, input.overrides);
      const [running] = await tx
        .select({ id: experiments.id })
        .from(experiments)
        .where(scoped(tx, actor).where(experiments, and(eq(experiments.flowId, flow.id), eq(experiments.status, 'running'))))
        .limit(1);
      if (running) throw alreadyRunning();
      const at = now();
      const row = await scoped(tx, actor).insert(experiments, {
        id: newId('experiment'),
        flowId: flow.id,
        flowVersionId: version?.id ?? null,
        name: input.name,
        status: 'running',
        splitBasisPoints: toBasisPoints(input.splitPct),
        overrides: input.overrides,
        winnerVariant: null,
        createdBy: actorOf(actor),
        startedAt: at,
        stoppedAt: null,
        foldedInAt: null,
        createdAt: at,
      });
      await announcePublicChange(tx, actor.tenantId);
      const [dto] = await withResults(tx, actor, flow.id, [row]);
      return dto;
    });
  } catch (err) {
    if (!(err instanceof AppError) && isUniqueViolation(err)) throw alreadyRunning();
    throw err;
  }
}

/** GET /flows/{id}/experiments: newest first, each with live results and their analysis. */
export async function listExperiments(q: Queryable, scope: Scope, flowId: string, page: { limit: number; startingAfter?: string }): Promise<ExperimentDto[]> {
  const s = scoped(q, scope);
  await s.require(flows, flowId, 'flow');
  if (page.startingAfter) {
    const after = await s.get(experiments, page.startingAfter);
    if (!after || after.flowId !== flowId) throw errors.validation('starting_after is not an experiment of this flow.', 'starting_after');
  }
  const rows = await s.list(experiments, { where: eq(experiments.flowId, flowId), limit: page.limit, startingAfter: page.startingAfter });
  return withResults(q, scope, flowId, rows);
}

async function lockExperiment(q: Queryable, scope: Scope, id: string): Promise<ExperimentRow> {
  const [row] = await q
    .select()
    .from(experiments)
    .where(scoped(q, scope).where(experiments, eq(experiments.id, id)))
    .for('update');
  if (!row) throw errors.notFound('experiment', id);
  return row;
}

/**
 * POST /flows/experiments/{expId}/stop: new sessions get the control from now on (sessions already assigned
 * keep their arm). The winner is recorded only; nothing is promoted. Stopping a stopped experiment changes
 * nothing, its first winner included.
 */
export async function stopExperiment(db: Db, scope: Scope, id: string, input: { winnerVariant?: Arm }): Promise<{ ok: true }> {
  return db.transaction(async (tx) => {
    const row = await lockExperiment(tx, scope, id);
    if (row.status === 'stopped') return { ok: true as const };
    await scoped(tx, scope).update(experiments, id, { status: 'stopped', stoppedAt: now(), winnerVariant: input.winnerVariant ?? null });
    await announcePublicChange(tx, scope.tenantId);
    return { ok: true as const };
  });
}

/**
 * POST /flows/experiments/{expId}/fold-in: the variant's overrides applied to the flow's draft (copy, theme,
 * presentation order), to be published normally: the clinical plane is untouched, so publication is at once
 * when the rest of the draft is. Only a stopped experiment (a running one would otherwise show its variant to
 * the control after the next publication). Overrides that no longer fit the draft are 409 `draft_changed`.
 */
export async function foldInExperiment(db: Db, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    const experiment = await lockExperiment(tx, actor, id);
    if (experiment.status === 'running') throw errors.conflict('Stop the experiment before folding its variant into the flow.', 'experiment_running');
    const flow = await lockFlow(tx, actor, experiment.flowId);
    refuseArchived(flow);
    let draft;
    try {
      draft = applyOverrides(flow.draft, experiment.overrides);
    } catch (err) {
      if (err instanceof AppError) throw errors.conflict(`The draft changed since the experiment started and its overrides no longer fit: ${err.message}`, 'draft_changed');
      throw err;
    }
    const at = now();
    const updated = await scoped(tx, actor).update(flows, flow.id, { draft, updatedAt: at });
    const folded = await scoped(tx, actor).update(experiments, id, { foldedInAt: at });
    const [dto] = await withResults(tx, actor, flow.id, [folded!]);
    return { experiment: dto, flow: await toFlowDtoOne(tx, actor, updated!) };
  });
}
