import { and, asc, eq, isNull } from 'drizzle-orm';
import { embedKeys, intakeSubmissions, type NoticeSubjectKind } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { portalUrl } from '@/server/domain/patients/portal-link';

/**
 * Which portal a notice links to (DESIGN decision 41, our choice): the portal of the embed key the patient came
 * through (the submission's, or for an order the submission it was approved from), while that key is active;
 * otherwise the clinic's default key of the mode: its oldest active one, the key it has had longest. Null when
 * the mode has no active key at all: the message then tells the patient to contact the clinic.
 */
export async function noticePortalUrl(q: Queryable, scope: Scope, subject: { kind: NoticeSubjectKind; id: string }, publicBaseUrl: string): Promise<string | null> {
  const s = scoped(q, scope);
  const [origin] = await q
    .select({ keyId: embedKeys.id })
    .from(intakeSubmissions)
    .innerJoin(embedKeys, and(eq(embedKeys.id, intakeSubmissions.embedKeyId), isNull(embedKeys.revokedAt)))
    .where(
      and(
        s.where(intakeSubmissions, subject.kind === 'order' ? eq(intakeSubmissions.orderId, subject.id) : eq(intakeSubmissions.id, subject.id)),
        s.where(embedKeys),
      ),
    )
    .limit(1);
  const key = origin?.keyId ?? (await defaultEmbedKey(q, scope));
  return key ? portalUrl(publicBaseUrl, key) : null;
}

/** The mode's oldest active embed key (ids are time-ordered). */
export async function defaultEmbedKey(q: Queryable, scope: Scope): Promise<string | null> {
  const [row] = await q
    .select({ id: embedKeys.id })
    .from(embedKeys)
    .where(scoped(q, scope).where(embedKeys, isNull(embedKeys.revokedAt)))
    .orderBy(asc(embedKeys.id))
    .limit(1);
  return row?.id ?? null;
}
