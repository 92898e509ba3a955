import { desc, eq } from 'drizzle-orm';
import { questionnaires } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { canonicalHash } from '@/server/lib/canonical';
import { invalidDocument } from './questionnaire-problems';
import { checkProtocol } from './questionnaires';
import { validateQuestionnaire } from './validate';

/**
 * `POST /intake/questionnaires/validate`: publication's dry run, for the console's builder (and any API
 * client) to check a document before publishing it. The very checks `publishQuestionnaire` makes, answered
 * the same way (400 `invalid_questionnaire` naming the item, every problem in `details`; 400
 * `unknown_protocol`), so a document that passes here is one publication accepts. It only reads: no
 * version, event or stored response is written, whatever the outcome.
 */
export async function dryRunQuestionnaire(q: Queryable, scope: Scope, input: unknown) {
  const checked = validateQuestionnaire(input);
  if (!checked.ok) throw invalidDocument(input, checked.problems);
  const document = checked.document;
  await checkProtocol(q, scope, document.protocolId);
  const contentHash = canonicalHash(document);
  const s = scoped(q, scope);
  const versions = await q
    .select({ version: questionnaires.version, status: questionnaires.status, contentHash: questionnaires.contentHash })
    .from(questionnaires)
    .where(s.where(questionnaires, eq(questionnaires.key, document.key)))
    .orderBy(desc(questionnaires.version));
  const approved = versions.find((v) => v.status === 'approved');
  // What publication would answer instead of a new version (decision 45): the approved one first, else the newest pending.
  const same = approved?.contentHash === contentHash ? approved : versions.find((v) => v.status === 'pending' && v.contentHash === contentHash);
  return {
    object: 'questionnaire_check' as const,
    valid: true as const,
    key: document.key,
    contentHash,
    // Publication takes the next number under the key's lock; another publication in between can take it first.
    nextVersion: (versions[0]?.version ?? 0) + 1,
    approvedVersion: approved?.version ?? null,
    sameAsApproved: approved !== undefined && approved.contentHash === contentHash,
    existingVersion: same?.version ?? null,
  };
}
