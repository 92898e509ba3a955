import { flowVersions, questionnaires } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import type { QuestionnaireRow } from '@/server/domain/intake/questionnaire-store';

export type FlowVersionRow = typeof flowVersions.$inferSelect;

/** A published flow version and the questionnaire version its clinical plane is pinned to (perhaps retired since). */
export interface PinnedVersion {
  version: FlowVersionRow;
  questionnaire: QuestionnaireRow;
}

/*
 * A version's document and its questionnaire's document never change once written (only statuses do, and
 * the runtime reads neither status), so the process keeps them by version id: a step save or a beacon then
 * costs no jsonb read. Entries are checked against the caller's scope before use.
 */
const MAX_CACHED = 1000;
const cache = new Map<string, PinnedVersion>();

/** The version by id within the scope, with the questionnaire row named by its `questionnaire_id`; else 404. */
export async function loadPinnedVersion(q: Queryable, scope: Scope, versionId: string): Promise<PinnedVersion> {
  const hit = cache.get(versionId);
  if (hit && hit.version.tenantId === scope.tenantId && hit.version.livemode === scope.livemode) return hit;
  const s = scoped(q, scope);
  const version = await s.require(flowVersions, versionId, 'flow version');
  const questionnaire = await s.require(questionnaires, version.questionnaireId, 'questionnaire');
  const pinned = { version, questionnaire };
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(versionId, pinned);
  return pinned;
}
