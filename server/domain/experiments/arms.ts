import { and, eq, sql } from 'drizzle-orm';
import { experiments, type flowSessions } from '@/db/schema';
import { scoped, scopedStatement, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import type { FlowDocumentShape } from '@/server/domain/flows/shared/shapes';
import { armOf, type Arm } from './assignment';
import { applyOverrides } from './overrides';

export type ExperimentRow = typeof experiments.$inferSelect;
type SessionRow = typeof flowSessions.$inferSelect;

/**
 * What the runtime asks of experiments (DESIGN decision 27): which arm a new session gets, and the document
 * each arm is served. An experiment's overrides never change, so the variant's document is computed once per
 * experiment and version and kept by the process, like the runtime's pinned versions.
 */

const runningStatement = scopedStatement((own, q) =>
  q
    .select()
    .from(experiments)
    .where(and(own(experiments), eq(experiments.flowId, sql.placeholder('flowId')), eq(experiments.status, 'running')))
    .limit(1),
);

/** The experiment running on the flow, if any (the partial unique index allows one). */
export async function runningExperiment(q: Queryable, scope: Scope, flowId: string): Promise<ExperimentRow | undefined> {
  const [row] = await scoped(q, scope).run(runningStatement, { flowId });
  return row;
}

const MAX_CACHED = 1000;
const variants = new Map<string, FlowDocumentShape | null>();

/**
 * The variant's document on a version: its overrides applied to the version's document. Null when they no
 * longer fit that version (a later publication removed or moved a step they name).
 */
export function variantDocument(experiment: Pick<ExperimentRow, 'id' | 'overrides'>, versionId: string, doc: FlowDocumentShape): FlowDocumentShape | null {
  const key = `${experiment.id}:${versionId}`;
  if (variants.has(key)) return variants.get(key)!;
  let out: FlowDocumentShape | null;
  try {
    out = applyOverrides(doc, experiment.overrides);
  } catch {
    out = null;
  }
  if (variants.size >= MAX_CACHED) variants.clear();
  variants.set(key, out);
  return out;
}

export interface Assignment {
  experimentId: string;
  arm: Arm;
  /** The document the session is served: the version's own for control, the variant's otherwise. */
  document: FlowDocumentShape;
}

/** The running experiment as the embed key's lookup reads it (server/domain/embed/keys.ts): no overrides. */
export type RunningExperimentRef = Pick<ExperimentRow, 'id' | 'splitBasisPoints'>;

/**
 * The arm of a new session: the running experiment's bucket of (experiment, session), never the client's
 * hint. No experiment (or one stopped) → null, and so is a version the overrides do not fit, decided before
 * the bucket so that leaving such sessions out favours neither arm. `running` is what the embed key's lookup
 * found in the same request (null: none); undefined reads it here.
 */
export async function assignArm(
  q: Queryable,
  scope: Scope,
  flowId: string,
  sessionId: string,
  version: { id: string; document: FlowDocumentShape },
  running?: RunningExperimentRef | null,
): Promise<Assignment | null> {
  const read = running === undefined ? await runningExperiment(q, scope, flowId) : undefined;
  const experiment = read ?? running;
  if (!experiment) return null;
  const variant = variantDocument(await withOverrides(q, scope, experiment.id, read), version.id, version.document);
  if (!variant) return null;
  const arm = armOf(experiment.id, sessionId, experiment.splitBasisPoints);
  return { experimentId: experiment.id, arm, document: arm === 'variant' ? variant : version.document };
}

type Overrides = Pick<ExperimentRow, 'id' | 'overrides' | 'tenantId' | 'livemode'>;
const overridesCache = new Map<string, Overrides>();

/** An experiment's overrides (set at its creation, never changed), kept by the process once read (`row`: read already). */
async function withOverrides(q: Queryable, scope: Scope, id: string, row?: ExperimentRow): Promise<Overrides> {
  const cached = overridesCache.get(id);
  if (cached && cached.tenantId === scope.tenantId && cached.livemode === scope.livemode) return cached;
  row ??= await scoped(q, scope).require(experiments, id, 'experiment');
  const kept = { id: row.id, overrides: row.overrides, tenantId: row.tenantId, livemode: row.livemode };
  if (overridesCache.size >= MAX_CACHED) overridesCache.clear();
  overridesCache.set(row.id, kept);
  return kept;
}

/**
 * The document an existing session is served: the variant's when it was assigned the variant (sticky, even
 * after the experiment stopped), else the version's own.
 */
export async function sessionDocument(q: Queryable, scope: Scope, session: Pick<SessionRow, 'experimentId' | 'variantKey'>, version: { id: string; document: FlowDocumentShape }): Promise<FlowDocumentShape> {
  if (session.variantKey !== 'variant' || !session.experimentId) return version.document;
  const experiment = await withOverrides(q, scope, session.experimentId);
  return variantDocument(experiment, version.id, version.document) ?? version.document;
}
