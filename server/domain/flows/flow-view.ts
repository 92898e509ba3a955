import { eq, inArray, isNull } from 'drizzle-orm';
import { embedKeys, flowVersions, questionnaires } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { clinicalPlaneHash, type PinnedQuestionnaire } from './clinical-plane';
import { toFlowDto, type FlowRow } from './flow-dto';

/**
 * The current approved version (key, version, content hash) of each questionnaire key, without documents:
 * what a draft's clinical-plane hash would be pinned to if it were published now.
 */
export async function currentQuestionnaires(q: Queryable, scope: Scope, keys: string[]): Promise<Map<string, PinnedQuestionnaire>> {
  if (keys.length === 0) return new Map();
  const s = scoped(q, scope);
  const rows = await q
    .select({ key: questionnaires.key, version: questionnaires.version, contentHash: questionnaires.contentHash })
    .from(questionnaires)
    .where(s.where(questionnaires, inArray(questionnaires.key, [...new Set(keys)]), eq(questionnaires.status, 'approved')));
  const byKey = new Map<string, PinnedQuestionnaire>();
  // Approval retires the previous version in the same transaction, so one per key; the newest wins if not.
  for (const r of rows) if ((byKey.get(r.key)?.version ?? 0) < r.version) byKey.set(r.key, r);
  return byKey;
}

/** Flow records for `rows`, with their active and pending versions, live embed keys and draft hash: three queries for any number of flows. */
export async function toFlowDtos(q: Queryable, scope: Scope, rows: FlowRow[]) {
  if (rows.length === 0) return [];
  const s = scoped(q, scope);
  const versionIds = rows.flatMap((r) => [r.activeVersionId, r.pendingVersionId]).filter((id): id is string => Boolean(id));
  // One after another: inside a transaction the three share one connection.
  const versions = versionIds.length ? await q.select().from(flowVersions).where(s.where(flowVersions, inArray(flowVersions.id, versionIds))) : [];
  const keys = await q
    .select({ id: embedKeys.id, flowId: embedKeys.flowId })
    .from(embedKeys)
    .where(s.where(embedKeys, inArray(embedKeys.flowId, rows.map((r) => r.id)), isNull(embedKeys.revokedAt)))
    .orderBy(embedKeys.createdAt, embedKeys.id);
  const pinned = await currentQuestionnaires(q, scope, rows.map((r) => r.draft.settings.questionnaireKey));
  const byId = new Map(versions.map((v) => [v.id, v]));
  return rows.map((row) => {
    const questionnaire = pinned.get(row.draft.settings.questionnaireKey);
    return toFlowDto(row, {
      active: row.activeVersionId ? byId.get(row.activeVersionId) : undefined,
      pending: row.pendingVersionId ? byId.get(row.pendingVersionId) : undefined,
      embedKeys: keys.filter((k) => k.flowId === row.id).map((k) => k.id),
      draftClinicalPlaneHash: questionnaire ? clinicalPlaneHash(row.draft, questionnaire) : null,
    });
  });
}

export async function toFlowDtoOne(q: Queryable, scope: Scope, row: FlowRow) {
  const [dto] = await toFlowDtos(q, scope, [row]);
  return dto;
}

