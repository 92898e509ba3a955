import { flowSessions, flowVersions } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';

/**
 * The protocol a flow run orders when a provider approves it: the flow version's own `settings.protocolId`
 * (the one publication checked), else undefined and the questionnaire's applies (DESIGN decision 23).
 */
export async function flowProtocolIdOf(q: Queryable, scope: Scope, submission: { flowSessionId: string | null }): Promise<string | undefined> {
  if (!submission.flowSessionId) return undefined;
  const s = scoped(q, scope);
  const session = await s.get(flowSessions, submission.flowSessionId);
  const version = session ? await s.get(flowVersions, session.flowVersionId) : undefined;
  return version?.document.settings.protocolId;
}
