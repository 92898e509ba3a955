import { and, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import { protocols, questionnaires, type QuestionnaireOrigin } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import type { Principal } from '@/server/domain/auth/principal';
import { canonicalHash } from '@/server/lib/canonical';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { invalidDocument } from './questionnaire-problems';
import type { QuestionnaireDocument } from './questionnaire-schema';
import { findApprovedQuestionnaire } from './questionnaire-store';
import { toQuestionnaireDto } from './questionnaire-dto';
import { validateQuestionnaire } from './validate';

type Actor = Principal & Scope;
const actorOf = (p: Principal) => p.userId ?? p.keyId ?? 'system';

/**
 * Serializes writes to one questionnaire key (its versions, its approval) within a tenant and mode, until
 * the transaction ends; the unique (tenant, mode, key, version) index stays the last line of defence.
 */
async function lockKey(q: Queryable, scope: Scope, key: string) {
  await q.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`questionnaire:${scope.tenantId}:${scope.livemode}:${key}`}, 0))`);
}

/** A protocol named by the document must be one of the caller's tenant and mode (same answer for unknown and foreign ids). */
export async function checkProtocol(q: Queryable, scope: Scope, protocolId: string | undefined, status: 400 | 422 = 400) {
  if (!protocolId) return;
  const found = await scoped(q, scope).get(protocols, protocolId);
  if (found) return;
  const message = 'protocolId is not a protocol of this account in this mode.';
  throw status === 400 ? errors.validation(message, 'protocolId', 'unknown_protocol') : errors.unprocessable(message, 'protocolId', 'draft_invalid');
}

/**
 * Stores `document` (already validated) as the key's next version: version = newest + 1, taken under the
 * key's lock. Approval is never set here: every new version starts unapproved, whatever its origin.
 */
export async function insertQuestionnaireVersion(
  db: Db,
  scope: Scope,
  input: { document: QuestionnaireDocument; origin: QuestionnaireOrigin; createdBy: string; status?: 'draft' | 'pending' },
) {
  return db.transaction(async (tx) => {
    await lockKey(tx, scope, input.document.key);
    const s = scoped(tx, scope);
    const [{ max }] = await tx
      .select({ max: sql<number | null>`max(${questionnaires.version})` })
      .from(questionnaires)
      .where(s.where(questionnaires, eq(questionnaires.key, input.document.key)));
    const at = now();
    const row = await s.insert(questionnaires, {
      id: newId('questionnaire'),
      key: input.document.key,
      version: Number(max ?? 0) + 1,
      status: input.status ?? 'pending',
      origin: input.origin,
      document: input.document,
      contentHash: canonicalHash(input.document),
      createdBy: input.createdBy,
      approvedBy: null,
      approvedAt: null,
      approvalNote: null,
      retiredAt: null,
      createdAt: at,
      updatedAt: at,
    });
    return row;
  });
}

/** `POST /intake/questionnaires`: a hand-written version, validated, stored `pending` for a provider's approval. */
export async function publishQuestionnaire(db: Db, principal: Actor, input: unknown) {
  const checked = validateQuestionnaire(input);
  if (!checked.ok) throw invalidDocument(input, checked.problems);
  await checkProtocol(db, principal, checked.document.protocolId);
  const row = await insertQuestionnaireVersion(db, principal, { document: checked.document, origin: 'staff', createdBy: actorOf(principal) });
  return toQuestionnaireDto(row);
}

/** The usable questionnaires: the approved version of each key (approval retires the one before), newest first. */
export async function listApprovedQuestionnaires(q: Queryable, scope: Scope, page: { limit: number; startingAfter?: string }) {
  const rows = await scoped(q, scope).list(questionnaires, { ...page, where: eq(questionnaires.status, 'approved') });
  return rows.map(toQuestionnaireDto);
}

/** Versions not yet approved (`draft`, `pending`), newest first: a provider's approval queue. */
export async function listQuestionnaireDrafts(q: Queryable, scope: Scope, page: { limit: number; startingAfter?: string }) {
  const rows = await scoped(q, scope).list(questionnaires, { ...page, where: inArray(questionnaires.status, ['draft', 'pending']) });
  return rows.map(toQuestionnaireDto);
}

/** The current approved version of `key`, or any version that was ever approved (`version`); else 404. */
export async function getQuestionnaire(q: Queryable, scope: Scope, key: string, version?: number) {
  const row = await findApprovedQuestionnaire(q, scope, key, version);
  if (!row) throw errors.notFound(version === undefined ? 'approved questionnaire' : 'approved questionnaire version');
  return toQuestionnaireDto(row);
}

/**
 * A provider's approval (DESIGN decision 18). The decision is bound to the content: the stored document is
 * hashed again and must match what was recorded at publication and, when the caller sends it, the hash of
 * what the provider was shown. The approved version replaces the key's previous one, which is retired, in
 * the same transaction. The caller (the route) has already checked the provider: session, scope, verified NPI.
 */
export async function approveQuestionnaire(db: Db, principal: Actor, id: string, input: { note?: string; contentHash?: string }) {
  return db.transaction(async (tx) => {
    const s = scoped(tx, principal);
    const found = await s.require(questionnaires, id, 'questionnaire');
    await lockKey(tx, principal, found.key);
    // Read again under the lock: a concurrent approval of this id or of another version may just have committed.
    const row = (await s.get(questionnaires, id))!;
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
