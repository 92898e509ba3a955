import { and, desc, eq, lt } from 'drizzle-orm';
import { flows, flowVersions } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable, Tx } from '@/server/db/types';
import type { Principal } from '@/server/domain/auth/principal';
import { announcePublicChange } from '@/server/domain/embed/public-changes';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import type { FlowDocumentShape } from '@/server/domain/flows/shared/shapes';
import { newId } from '@/server/lib/ids';
import { parseFlowDocument } from './flow-schema';
import { toFlowVersionDto, type FlowRow } from './flow-dto';
import { toFlowDtoOne, toFlowDtos } from './flow-view';
import { applyStepPatches, type StepPatch } from './step-patches';

export type Actor = Principal & Scope;
export const actorOf = (p: Principal) => p.userId ?? p.keyId ?? 'system';

/**
 * A document sent by a client, ready for `parseFlowDocument`: the API never shows the checkout secret (only
 * `secretLast4`), so a checkout sent back without `secret` keeps the stored one.
 */
function withStoredSecret(input: unknown, stored: FlowDocumentShape | undefined): unknown {
  if (!input || typeof input !== 'object') return input;
  const settings = (input as { settings?: unknown }).settings;
  if (!settings || typeof settings !== 'object') return input;
  const checkout = (settings as { checkout?: unknown }).checkout;
  if (!checkout || typeof checkout !== 'object' || 'secret' in checkout) return input;
  const { secretLast4: _shown, ...rest } = checkout as Record<string, unknown>;
  const secret = stored?.settings.checkout?.secret;
  return { ...input, settings: { ...settings, checkout: secret ? { ...rest, secret } : rest } };
}

/** The flow row locked for this transaction: publish, approve, edit and archive of one flow take turns. */
export async function lockFlow(tx: Tx, scope: Scope, id: string): Promise<FlowRow> {
  const [row] = await tx.select().from(flows).where(scoped(tx, scope).where(flows, eq(flows.id, id))).for('update');
  if (!row) throw errors.notFound('flow', id);
  return row;
}

export const refuseArchived = (row: FlowRow) => {
  if (row.status === 'archived') throw errors.conflict('This flow is archived; it can no longer be edited or published.', 'flow_archived');
};

/** `POST /flows`: a new flow whose draft is `document` (checked, 400 naming `document.<field>`); nothing is published. */
export async function createFlow(db: Db, actor: Actor, input: { name: string; document: unknown; origin?: 'staff' | 'ai' }) {
  const document = parseFlowDocument(input.document, 'document');
  const at = now();
  const row = await scoped(db, actor).insert(flows, {
    id: newId('flow'),
    name: input.name,
    status: 'active',
    draft: document,
    activeVersionId: null,
    pendingVersionId: null,
    origin: input.origin ?? 'staff',
    createdBy: actorOf(actor),
    archivedAt: null,
    createdAt: at,
    updatedAt: at,
  });
  return toFlowDtoOne(db, actor, row);
}

/** Newest first, archived flows included. */
export async function listFlows(q: Queryable, scope: Scope, page: { limit: number; startingAfter?: string }) {
  const s = scoped(q, scope);
  if (page.startingAfter && !(await s.get(flows, page.startingAfter))) throw errors.validation('starting_after is not a flow of this tenant and mode.', 'starting_after');
  return toFlowDtos(q, scope, await s.list(flows, page));
}

export async function getFlow(q: Queryable, scope: Scope, id: string) {
  return toFlowDtoOne(q, scope, await scoped(q, scope).require(flows, id, 'flow'));
}

export interface FlowChanges {
  name?: string;
  document?: unknown;
  stepPatches?: StepPatch[];
}

/**
 * `PATCH /flows/{id}`: edits the draft only (patients keep the active version until a publication). A whole
 * `document` may change anything, the clinical plane included, which then needs a provider at publication;
 * `stepPatches`, applied after it, may touch presentation steps only. Any refusal saves nothing.
 */
export async function updateFlow(db: Db, actor: Actor, id: string, changes: FlowChanges) {
  return db.transaction(async (tx) => {
    const row = await lockFlow(tx, actor, id);
    refuseArchived(row);
    let draft: FlowDocumentShape = row.draft;
    if (changes.document !== undefined) draft = parseFlowDocument(withStoredSecret(changes.document, row.draft), 'document');
    if (changes.stepPatches?.length) draft = applyStepPatches(draft, changes.stepPatches);
    const set: Partial<FlowRow> = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.document !== undefined || changes.stepPatches?.length) set.draft = draft;
    if (Object.keys(set).length === 0) return toFlowDtoOne(tx, actor, row);
    const updated = await scoped(tx, actor).update(flows, id, { ...set, updatedAt: now() });
    return toFlowDtoOne(tx, actor, updated!);
  });
}

/**
 * `POST /flows/{id}/archive`: the flow stops serving (its embed keys answer 404) and can no longer change; a
 * version waiting for a provider is withdrawn. Archiving an archived flow answers it unchanged.
 */
export async function archiveFlow(db: Db, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    const row = await lockFlow(tx, actor, id);
    if (row.status === 'archived') return toFlowDtoOne(tx, actor, row);
    const s = scoped(tx, actor);
    if (row.pendingVersionId) await s.update(flowVersions, row.pendingVersionId, { status: 'withdrawn' });
    const at = now();
    const updated = await s.update(flows, id, { status: 'archived', archivedAt: at, pendingVersionId: null, updatedAt: at });
    await announcePublicChange(tx, row.tenantId);
    return toFlowDtoOne(tx, actor, updated!);
  });
}

/** `GET /flows/{id}/versions`: every version, newest (highest number) first. */
export async function listFlowVersions(q: Queryable, scope: Scope, id: string, page: { limit: number; startingAfter?: string }) {
  const s = scoped(q, scope);
  await s.require(flows, id, 'flow');
  let cursor;
  if (page.startingAfter) {
    const after = await s.get(flowVersions, page.startingAfter);
    if (!after || after.flowId !== id) throw errors.validation('starting_after is not a version of this flow.', 'starting_after');
    cursor = lt(flowVersions.number, after.number);
  }
  const rows = await q
    .select()
    .from(flowVersions)
    .where(s.where(flowVersions, and(eq(flowVersions.flowId, id), cursor)))
    .orderBy(desc(flowVersions.number))
    .limit(page.limit);
  return rows.map(toFlowVersionDto);
}
