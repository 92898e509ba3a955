import { and, eq, gt, lt, ne } from 'drizzle-orm';
import { questionnaires } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { canonicalHash } from '@/server/lib/canonical';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { toQuestionnaireDto } from './questionnaire-dto';
import type { QuestionnaireRow } from './questionnaire-store';
import { actorOf, checkProtocol, lockKey, type Actor } from './questionnaires';
import { validateQuestionnaire } from './validate';

/**
 * A provider's approval (DESIGN decision 18). The decision is bound to the content: the stored document is
 * hashed again and must match what was recorded at publication and, when the caller sends it, the hash of
 * what the provider was shown. The approved version replaces the key's previous one, which is retired, and
 * supersedes every older version still pending (decision 45), in the same transaction. The caller (the route)
 * has already checked the provider: session, scope, verified NPI.
 */
export async function approveQuestionnaire(db: Db, principal: Actor, id: string, input: { note?: string; contentHash?: string }) {
  return db.transaction(async (tx) => {
    const s = scoped(tx, principal);
    const found = await s.require(questionnaires, id, 'questionnaire');
    await lockKey(tx, principal, found.key);
    // Read again under the lock: a concurrent approval of this id or of another version may just have committed.
    const row = (await s.get(questionnaires, id))!;
    if (row.status === 'superseded') throw await supersededConflict(tx, principal, row);
    if (row.status !== 'pending') {
      const why = row.status === 'draft' ? 'a draft must be published for approval first' : `it is already ${row.status}`;
      throw errors.conflict(`This questionnaire version cannot be approved: ${why}.`, 'questionnaire_not_pending');
    }
    const [newer] = await tx
      .select({ version: questionnaires.version })
      .from(questionnaires)
      .where(s.where(questionnaires, eq(questionnaires.key, row.key), eq(questionnaires.status, 'approved'), gt(questionnaires.version, row.version)))
      .limit(1);
    // Approving an older version would silently roll the clinic's form back: publish it again as a new version instead.
    if (newer) throw errors.conflict(`Version ${newer.version} of this questionnaire is already approved; an older version cannot replace it.`, 'questionnaire_superseded');
    const hash = canonicalHash(row.document);
    if (hash !== row.contentHash) throw errors.conflict('The stored document no longer matches its recorded content hash; it cannot be approved.', 'content_hash_mismatch');
    if (input.contentHash !== undefined && input.contentHash !== hash) {
      throw errors.conflict('The questionnaire differs from the version you reviewed (contentHash mismatch); reload it and review again.', 'content_hash_mismatch');
    }
    // The validator may have grown stricter since publication: never approve what it now refuses.
    const checked = validateQuestionnaire(row.document);
    if (!checked.ok) throw errors.unprocessable(`This version no longer passes validation (${checked.problems[0].param}: ${checked.problems[0].message}); publish a corrected version.`, 'document', 'questionnaire_invalid');
    await checkProtocol(tx, principal, row.document.protocolId, 422);
    const at = now();
    await tx
      .update(questionnaires)
      .set({ status: 'retired', retiredAt: at, updatedAt: at })
      .where(s.where(questionnaires, eq(questionnaires.key, row.key), eq(questionnaires.status, 'approved'), ne(questionnaires.id, id)));
    // Every older version still pending would roll the form back if approved later: superseded, out of the queue.
    await tx
      .update(questionnaires)
      .set({ status: 'superseded', supersededBy: id, supersededAt: at, updatedAt: at })
      .where(s.where(questionnaires, eq(questionnaires.key, row.key), eq(questionnaires.status, 'pending'), lt(questionnaires.version, row.version)));
    const approved = await s.update(
      questionnaires,
      id,
      { status: 'approved', approvedBy: actorOf(principal), approvedAt: at, approvalNote: input.note ?? null, updatedAt: at },
      and(eq(questionnaires.status, 'pending'), eq(questionnaires.contentHash, hash)),
    );
    if (!approved) throw errors.conflict('This questionnaire version changed while it was being approved; try again.', 'questionnaire_not_pending');
    return toQuestionnaireDto(approved);
  });
}

/** 409 for a superseded version, naming the version whose approval superseded it. */
async function supersededConflict(q: Queryable, scope: Scope, row: QuestionnaireRow) {
  const by = row.supersededBy ? await scoped(q, scope).get(questionnaires, row.supersededBy) : undefined;
  const which = by ? `version ${by.version}` : 'a newer version';
  return errors.conflict(
    `This questionnaire version was superseded when ${which} was approved; it can no longer be approved. To use its content, publish it again as a new version.`,
    'questionnaire_superseded',
  );
}
