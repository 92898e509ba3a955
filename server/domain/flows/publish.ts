import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { flows, flowVersions } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db, Tx } from '@/server/db/types';
import { announcePublicChange } from '@/server/domain/embed/public-changes';
import { emitEvent } from '@/server/domain/events/emit';
import { findApprovedQuestionnaire } from '@/server/domain/intake/questionnaire-store';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import type { UrlPolicy } from '@/server/lib/ssrf';
import { clinicalPlaneHash } from './clinical-plane';
import { parseFlowDocument } from './flow-schema';
import { toFlowVersionDto, type FlowRow, type FlowVersionRow } from './flow-dto';
import { toFlowDtoOne } from './flow-view';
import { actorOf, lockFlow, refuseArchived, type Actor } from './flows';
import { checkPublishable } from './publish-checks';

/**
 * Makes `version` the one patients get (DESIGN decision 23): the previous active version is superseded, the
 * flow points at the new one, and `flow.published` is appended, all in the caller's transaction (which holds
 * the flow's row lock).
 */
async function makeActive(tx: Tx, actor: Actor, flow: FlowRow, version: FlowVersionRow) {
  const s = scoped(tx, actor);
  if (flow.activeVersionId && flow.activeVersionId !== version.id) await s.update(flowVersions, flow.activeVersionId, { status: 'superseded' });
  const updated = await s.update(flows, flow.id, { activeVersionId: version.id, pendingVersionId: null, updatedAt: version.publishedAt! });
  await announcePublicChange(tx, flow.tenantId);
  await emitEvent(tx, actor, 'flow.published', { flowId: flow.id, versionId: version.id, flowVersionId: version.id, clinicalPlaneHash: version.clinicalPlaneHash, approvedBy: version.approvedBy! });
  return updated!;
}

/**
 * `POST /flows/{id}/publish`: snapshots the draft as the flow's next version, pinned to the questionnaire's
 * current approved version. When its clinical-plane hash is the one a provider approved last for this flow
 * (a copy, theme or quiz change), it is published at once and that provider is recorded again as its
 * approver (`approvedHere` false); otherwise it waits as `pending_approval`. Either way a version still
 * waiting from an earlier publication is withdrawn: the newest publication is what the team wants live.
 */
export async function publishFlow(db: Db, actor: Actor, id: string, policy: UrlPolicy) {
  return db.transaction(async (tx) => {
    const flow = await lockFlow(tx, actor, id);
    refuseArchived(flow);
    // Checked again: the validator may have grown stricter since the draft was saved.
    const document = parseFlowDocument(flow.draft);
    const questionnaire = await checkPublishable(tx, actor, document, policy);
    const hash = clinicalPlaneHash(document, questionnaire);
    const s = scoped(tx, actor);
    const [{ max }] = await tx
      .select({ max: sql<number | null>`max(${flowVersions.number})` })
      .from(flowVersions)
      .where(s.where(flowVersions, eq(flowVersions.flowId, id)));
    const [lastApproved] = await tx
      .select()
      .from(flowVersions)
      .where(s.where(flowVersions, eq(flowVersions.flowId, id), isNotNull(flowVersions.approvedBy)))
      .orderBy(desc(flowVersions.number))
      .limit(1);
    const reuse = lastApproved?.clinicalPlaneHash === hash ? lastApproved : undefined;
    if (flow.pendingVersionId) await s.update(flowVersions, flow.pendingVersionId, { status: 'withdrawn' });
    const at = now();
    const version = await s.insert(flowVersions, {
      id: newId('flowVersion'),
      flowId: id,
      number: Number(max ?? 0) + 1,
      status: reuse ? 'published' : 'pending_approval',
      document,
      questionnaireId: questionnaire.id,
      questionnaireKey: questionnaire.key,
      questionnaireVersion: questionnaire.version,
      clinicalPlaneHash: hash,
      publishedBy: actorOf(actor),
      approvedBy: reuse?.approvedBy ?? null,
      approvedAt: reuse?.approvedAt ?? null,
      approvedHere: false,
      publishedAt: reuse ? at : null,
      createdAt: at,
    });
    const updated = reuse
      ? await makeActive(tx, actor, flow, version)
      : (await s.update(flows, id, { pendingVersionId: version.id, updatedAt: at }))!;
    return { status: reuse ? ('published' as const) : ('pending_approval' as const), flow: await toFlowDtoOne(tx, actor, updated), version: toFlowVersionDto(version) };
  });
}

/**
 * `POST /flows/{id}/approve`: a provider's approval of the pending version's clinical plane (the route has
 * checked the provider: session, intake.review, verified NPI, MFA). Bound to what the provider reviewed:
 * a `versionId` or `clinicalPlaneHash` that is no longer the pending one's is 409 `flow_changed`. The version
 * is published with this provider as its approver, in the transaction that emits `flow.published`.
 */
export async function approveFlow(db: Db, actor: Actor, id: string, input: { versionId?: string; clinicalPlaneHash?: string }) {
  return db.transaction(async (tx) => {
    const flow = await lockFlow(tx, actor, id);
    refuseArchived(flow);
    const s = scoped(tx, actor);
    const pending = flow.pendingVersionId ? await s.get(flowVersions, flow.pendingVersionId) : undefined;
    if (!pending || pending.status !== 'pending_approval') throw errors.conflict('This flow has no version waiting for approval; publish it first.', 'no_pending_version');
    if ((input.versionId !== undefined && input.versionId !== pending.id) || (input.clinicalPlaneHash !== undefined && input.clinicalPlaneHash !== pending.clinicalPlaneHash)) {
      throw errors.conflict('The flow changed since you reviewed it: another version is now waiting for approval. Reload it and review again.', 'flow_changed');
    }
    // The pinned questionnaire must still be the one in use, and the stored snapshot must still hash to what was shown.
    const current = await findApprovedQuestionnaire(tx, actor, pending.questionnaireKey);
    if (!current || current.id !== pending.questionnaireId) {
      throw errors.conflict('The questionnaire this version is pinned to is no longer the approved one; publish the flow again.', 'questionnaire_changed');
    }
    if (clinicalPlaneHash(pending.document, current) !== pending.clinicalPlaneHash) {
      throw errors.conflict('The stored version no longer matches its recorded clinical-plane hash; it cannot be approved.', 'flow_changed');
    }
    const at = now();
    const approved = await s.update(
      flowVersions,
      pending.id,
      { status: 'published', approvedBy: actorOf(actor), approvedAt: at, approvedHere: true, publishedAt: at },
      and(eq(flowVersions.status, 'pending_approval')),
    );
    if (!approved) throw errors.conflict('This version changed while it was being approved; try again.', 'flow_changed');
    const updated = await makeActive(tx, actor, flow, approved);
    return { status: 'published' as const, flow: await toFlowDtoOne(tx, actor, updated), version: toFlowVersionDto(approved) };
  });
}
