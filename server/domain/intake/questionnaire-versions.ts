import { eq } from 'drizzle-orm';
import { questionnaires } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { toQuestionnaireDto } from './questionnaire-dto';
import { protocolViews } from './questionnaire-protocol';

/** How many versions the console's library reads at once: a clinic keeps a handful of keys with a few versions each. */
export const LIBRARY_VERSIONS_MAX = 500;

/**
 * Every version of the tenant's questionnaires in this mode, whatever its state (draft, pending, approved,
 * retired, superseded), newest first; only `key`'s when given. The console's library and approval pages read
 * this: the public list shows only approved versions, and a retired one is reachable there only by its number.
 * Each version comes with the protocol its document names, products, strengths and prescriptions included
 * (null when it names none): the provider approves what will be prescribed, not only the questions (decision 45).
 */
export async function listQuestionnaireVersions(q: Queryable, scope: Scope, key?: string) {
  const rows = await scoped(q, scope).list(questionnaires, { limit: LIBRARY_VERSIONS_MAX, where: key === undefined ? undefined : eq(questionnaires.key, key) });
  const protocols = await protocolViews(q, scope, rows.map((r) => r.document.protocolId));
  return rows.map((r) => ({ ...toQuestionnaireDto(r), protocol: (r.document.protocolId && protocols.get(r.document.protocolId)) || null }));
}
