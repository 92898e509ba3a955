import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { billingAccounts, embedKeys, experiments, flows, type DunningStage } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import { prepared } from '@/server/db/prepared';
import type { Queryable } from '@/server/db/types';
import { effectiveStage } from '@/server/domain/billing/stages';
import { now } from '@/server/lib/clock';
import { randomBase62 } from '@/server/lib/crypto';
import { errors } from '@/server/lib/errors';
import { checkAllowedOrigin, MAX_ALLOWED_ORIGINS } from './origins';
import { announcePublicChange } from './public-changes';

export type EmbedKeyRow = typeof embedKeys.$inferSelect;

export const EMBED_KEY_PREFIX = 'emb_';

export const newEmbedKeyId = () => `${EMBED_KEY_PREFIX}${randomBase62(24)}`;

export function toEmbedKeyDto(row: EmbedKeyRow) {
  return {
    id: row.id,
    name: row.name,
    livemode: row.livemode,
    allowedOrigins: row.allowedOrigins,
    flowId: row.flowId,
    questionnaireKeys: row.questionnaireKeys,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The allowed origins, checked one by one (400 naming `allowedOrigins.<i>`), without duplicates. */
export function normaliseOrigins(origins: readonly string[]): string[] {
  if (origins.length > MAX_ALLOWED_ORIGINS) throw errors.validation(`A key can allow at most ${MAX_ALLOWED_ORIGINS} origins.`, 'allowedOrigins');
  origins.forEach((o, i) => {
    const problem = checkAllowedOrigin(o);
    if (problem) throw errors.validation(problem, `allowedOrigins.${i}`, 'invalid_origin');
  });
  return [...new Set(origins)];
}

export interface CreateEmbedKeyInput {
  name?: string | null;
  allowedOrigins: string[];
  flowId?: string | null;
  questionnaireKeys?: string[];
}

/** A flow a key may serve: one of the caller's tenant and mode (archived ones too: they just answer 404). */
async function checkFlowId(q: Queryable, scope: Scope, flowId: string | null | undefined) {
  if (!flowId) return;
  if (!(await scoped(q, scope).get(flows, flowId))) throw errors.validation('flowId is not a flow of this account in this mode.', 'flowId', 'unknown_flow');
}

export async function createEmbedKey(q: Queryable, scope: Scope, input: CreateEmbedKeyInput) {
  const allowedOrigins = normaliseOrigins(input.allowedOrigins);
  await checkFlowId(q, scope, input.flowId);
  const now = new Date();
  const row = await scoped(q, scope).insert(embedKeys, {
    id: newEmbedKeyId(),
    name: input.name ?? null,
    allowedOrigins,
    flowId: input.flowId ?? null,
    questionnaireKeys: [...new Set(input.questionnaireKeys ?? [])],
    createdAt: now,
    updatedAt: now,
  });
  return toEmbedKeyDto(row);
}

/** Newest first, revoked keys included; ids are random, so the cursor is (createdAt, id) of the named key. */
export async function listEmbedKeys(q: Queryable, scope: Scope, page: { limit: number; startingAfter?: string }) {
  const s = scoped(q, scope);
  let cursor;
  if (page.startingAfter) {
    const after = await s.get(embedKeys, page.startingAfter);
    if (!after) throw errors.validation('starting_after is not an embed key of this tenant and mode.', 'starting_after');
    cursor = or(lt(embedKeys.createdAt, after.createdAt), and(eq(embedKeys.createdAt, after.createdAt), lt(embedKeys.id, after.id)));
  }
  const rows = await q.select().from(embedKeys).where(s.where(embedKeys, cursor)).orderBy(desc(embedKeys.createdAt), desc(embedKeys.id)).limit(page.limit);
  return rows.map(toEmbedKeyDto);
}

export async function getEmbedKey(q: Queryable, scope: Scope, id: string) {
  return toEmbedKeyDto(await scoped(q, scope).require(embedKeys, id, 'embed key'));
}

export interface EmbedKeyChanges {
  name?: string | null;
  allowedOrigins?: string[];
  flowId?: string | null;
  questionnaireKeys?: string[];
}

/** Changes the fields sent; a revoked key is final (409). */
export async function updateEmbedKey(q: Queryable, scope: Scope, id: string, changes: EmbedKeyChanges) {
  const s = scoped(q, scope);
  const set: Partial<typeof embedKeys.$inferInsert> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.allowedOrigins !== undefined) set.allowedOrigins = normaliseOrigins(changes.allowedOrigins);
  if (changes.questionnaireKeys !== undefined) set.questionnaireKeys = [...new Set(changes.questionnaireKeys)];
  if (changes.flowId !== undefined) {
    await checkFlowId(q, scope, changes.flowId);
    set.flowId = changes.flowId;
  }
  const existing = await s.require(embedKeys, id, 'embed key');
  if (existing.revokedAt) throw errors.conflict('This embed key is revoked; create a new one.', 'embed_key_revoked');
  if (Object.keys(set).length === 0) return toEmbedKeyDto(existing);
  // The revokedAt condition closes the race with a concurrent revoke.
  const row = await s.update(embedKeys, id, { ...set, updatedAt: new Date() }, isNull(embedKeys.revokedAt));
  if (row) await announcePublicChange(q, scope.tenantId);
  if (!row) throw errors.conflict('This embed key is revoked; create a new one.', 'embed_key_revoked');
  return toEmbedKeyDto(row);
}

/** Revokes for good; revoking a revoked key changes nothing and answers the same. */
export async function revokeEmbedKey(q: Queryable, scope: Scope, id: string) {
  const s = scoped(q, scope);
  const existing = await s.require(embedKeys, id, 'embed key');
  if (existing.revokedAt) return toEmbedKeyDto(existing);
  const now = new Date();
  const row = await s.update(embedKeys, id, { revokedAt: now, updatedAt: now }, isNull(embedKeys.revokedAt));
  if (row) await announcePublicChange(q, scope.tenantId);
  return toEmbedKeyDto(row ?? (await s.require(embedKeys, id, 'embed key')));
}

/**
 * An active key and, for a key serving a flow, the version that flow serves now; `billingStage` is the key's
 * tenant's and mode's dunning stage at the lookup (healthy for an account never written).
 */
export type ServingEmbedKey = EmbedKeyRow & {
  activeVersionId: string | null;
  billingStage: DunningStage;
  /** The experiment running on the key's flow (at most one), for a new session's arm; null when none. */
  runningExperiment: { id: string; splitBasisPoints: number } | null;
};

/**
 * The active key (not revoked) and `flowPublished` in one statement (docs/decisions/performance.md,
 * "Public runtime: statements per request"): the key joined to its flow within the key's own tenant and mode. Null when the key is malformed,
 * unknown or revoked, or serves a flow that is another tenant's or mode's, archived or unpublished (all 404).
 * The billing account of that tenant and mode rides on the same statement, so refusing a new session while
 * the clinic is restricted (decision 29) costs the public path no round trip, and so does the experiment
 * running on the flow (its id and split; a new session's arm needs them).
 */
// Rendered once (server/db/prepared.ts): every public call resolves its key with this statement.
const servingKeyStatement = prepared((q: Queryable) =>
  q
    .select({
      key: embedKeys,
      status: flows.status,
      activeVersionId: flows.activeVersionId,
      stage: billingAccounts.stage,
      firstFailedAt: billingAccounts.firstFailedAt,
      graceExtended: billingAccounts.graceExtended,
      experimentId: experiments.id,
      splitBasisPoints: experiments.splitBasisPoints,
    })
    .from(embedKeys)
    .leftJoin(flows, and(eq(flows.id, embedKeys.flowId), eq(flows.tenantId, embedKeys.tenantId), eq(flows.livemode, embedKeys.livemode)))
    .leftJoin(billingAccounts, and(eq(billingAccounts.tenantId, embedKeys.tenantId), eq(billingAccounts.livemode, embedKeys.livemode)))
    .leftJoin(
      experiments,
      and(eq(experiments.flowId, flows.id), eq(experiments.tenantId, embedKeys.tenantId), eq(experiments.livemode, embedKeys.livemode), eq(experiments.status, 'running')),
    )
    .where(eq(embedKeys.id, sql.placeholder('id')))
    .limit(1),
);

/**
 * What the serving-key statement read for an active key, before anything that depends on the time of the
 * request: the key cache (serving-key-cache.ts) keeps this and shapes it per request with `servingKeyOf`.
 */
export interface ServingKeyRecord {
  key: EmbedKeyRow;
  activeVersionId: string | null;
  billing: { stage: DunningStage; firstFailedAt: Date | null; graceExtended: boolean };
  runningExperiment: { id: string; splitBasisPoints: number } | null;
}

/** The statement's row for a well-formed key, or null when it is unknown, revoked or serves no published flow. */
export async function readServingKey(q: Queryable, id: string): Promise<ServingKeyRecord | null> {
  const [row] = await servingKeyStatement.execute(q, { id });
  if (!row || row.key.revokedAt) return null;
  if (row.key.flowId && !(row.status === 'active' && row.activeVersionId)) return null;
  return {
    key: row.key,
    activeVersionId: row.key.flowId ? row.activeVersionId : null,
    billing: { stage: row.stage ?? 'healthy', firstFailedAt: row.firstFailedAt, graceExtended: row.graceExtended ?? false },
    runningExperiment: row.key.flowId && row.experimentId ? { id: row.experimentId, splitBasisPoints: row.splitBasisPoints! } : null,
  };
}

/** A record as the request sees it: the dunning stage is the effective one now (grace periods end with time). */
export function servingKeyOf(record: ServingKeyRecord): ServingEmbedKey {
  return { ...record.key, activeVersionId: record.activeVersionId, billingStage: effectiveStage(record.billing, now()), runningExperiment: record.runningExperiment };
}

/**
 * A key serving a flow answers 404 unless that flow is the key's tenant's and mode's, not archived, and has
 * a published version (DESIGN decision 17).
 */
export async function flowPublished(q: Queryable, key: EmbedKeyRow): Promise<boolean> {
  if (!key.flowId) return true;
  const flow = await scoped(q, key).get(flows, key.flowId);
  return Boolean(flow && flow.status === 'active' && flow.activeVersionId);
}
