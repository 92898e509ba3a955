import { desc, eq, inArray, sql } from 'drizzle-orm';
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

export type Actor = Principal & Scope;
export const actorOf = (p: Principal) => p.userId ?? p.keyId ?? 'system';

/**
 * Serializes writes to one questionnaire key (its versions, its approval) within a tenant and mode, until
 * the transaction ends; the unique (tenant, mode, key, version) index stays the last line of defence.
 */
export async function lockKey(q: Queryable, scope: Scope, key: string) {
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

/** Inserts `document` as the key's next version (newest + 1); the caller holds the key's lock. */
async function insertLocked(tx: Queryable, scope: Scope, input: NewVersion) {
  const s = scoped(tx, scope);
  const [{ max }] = await tx
    .select({ max: sql<number | null>`max(${questionnaires.version})` })
    .from(questionnaires)
    .where(s.where(questionnaires, eq(questionnaires.key, input.document.key)));
  const at = now();
  return s.insert(questionnaires, {
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
    supersededBy: null,
    supersededAt: null,
    createdAt: at,
    updatedAt: at,
  });
}

type NewVersion = { document: QuestionnaireDocument; origin: QuestionnaireOrigin; createdBy: string; status?: 'draft' | 'pending' };

/**
 * Stores `document` (already validated) as the key's next version: version = newest + 1, taken under the
 * key's lock. Approval is never set here: every new version starts unapproved, whatever its origin.
 */
export async function insertQuestionnaireVersion(db: Db, scope: Scope, input: NewVersion) {
  return db.transaction(async (tx) => {
    await lockKey(tx, scope, input.document.key);
    return insertLocked(tx, scope, input);
  });
}

/** The approved version of `key` with this content, else its newest pending one with it (decision 45). */
async function sameContentVersion(q: Queryable, scope: Scope, key: string, contentHash: string) {
  const [row] = await q
    .select()
    .from(questionnaires)
    .where(scoped(q, scope).where(questionnaires, eq(questionnaires.key, key), eq(questionnaires.contentHash, contentHash), inArray(questionnaires.status, ['pending', 'approved'])))
    .orderBy(sql`${questionnaires.status} = 'approved' desc`, desc(questionnaires.version))
    .limit(1);
  return row;
}

/**
 * `POST /intake/questionnaires`: a hand-written version, validated, stored `pending` for a provider's approval.
 * A document whose content hash equals the approved version's or a pending version's makes no new version
 * (DESIGN decision 45): the answer is that version, with `created: false` (the route then answers 200, not 201).
 * Decided under the key's lock, so identical publications at the same moment make one version.
 */
export async function publishQuestionnaire(db: Db, principal: Actor, input: unknown) {
  const checked = validateQuestionnaire(input);
  if (!checked.ok) throw invalidDocument(input, checked.problems);
  const document = checked.document;
  await checkProtocol(db, principal, document.protocolId);
  const { row, created } = await storePendingVersion(db, principal, document, 'staff');
  return { questionnaire: toQuestionnaireDto(row), created };
}

/**
 * A validated document as the key's next `pending` version, unless the approved version or a pending one has the
 * same content (decision 45): then that version, `created: false`. Decided under the key's lock, so identical
 * publications at the same moment make one version. Publication and the FHIR import both come here.
 */
export async function storePendingVersion(db: Db, principal: Actor, document: QuestionnaireDocument, origin: QuestionnaireOrigin) {
  return db.transaction(async (tx) => {
    await lockKey(tx, principal, document.key);
    const same = await sameContentVersion(tx, principal, document.key, canonicalHash(document));
    if (same) return { row: same, created: false };
    return { row: await insertLocked(tx, principal, { document, origin, createdBy: actorOf(principal) }), created: true };
  });
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
