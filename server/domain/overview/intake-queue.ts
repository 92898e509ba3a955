import { asc, count, eq } from 'drizzle-orm';
import { intakeSubmissions } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';

export interface IntakeQueueSummary {
  waiting: number;
  /** Of those, how many wait first for someone to decide whose submission it is (DESIGN decision 32). */
  identityToResolve: number;
  oldest: { submissionId: string; waitingSince: string; ageSeconds: number } | null;
}

/**
 * The intake review queue beside the order approval queue (issue 50 item 5): how many submissions wait for a
 * provider's review, how many of them are held by an unresolved patient match, and the one waiting longest
 * (since it was received). Counts and an id only: no patient, answer or rule.
 */
export async function intakeQueueSummary(q: Queryable, scope: Scope, at: Date): Promise<IntakeQueueSummary> {
  const pending = scoped(q, scope).where(intakeSubmissions, eq(intakeSubmissions.status, 'pending_review'));
  const held = scoped(q, scope).where(intakeSubmissions, eq(intakeSubmissions.status, 'pending_review'), eq(intakeSubmissions.identityStatus, 'mismatch'));
  const [[total], [blocked], [oldest]] = await Promise.all([
    q.select({ n: count() }).from(intakeSubmissions).where(pending),
    q.select({ n: count() }).from(intakeSubmissions).where(held),
    q
      .select({ id: intakeSubmissions.id, since: intakeSubmissions.createdAt })
      .from(intakeSubmissions)
      .where(pending)
      .orderBy(asc(intakeSubmissions.createdAt), asc(intakeSubmissions.id))
      .limit(1),
  ]);
  const waiting = Number(total?.n ?? 0);
  const identityToResolve = Number(blocked?.n ?? 0);
  if (!oldest) return { waiting, identityToResolve, oldest: null };
  const since = new Date(oldest.since);
  return {
    waiting,
    identityToResolve,
    oldest: { submissionId: oldest.id, waitingSince: since.toISOString(), ageSeconds: Math.max(0, Math.floor((at.getTime() - since.getTime()) / 1000)) },
  };
}
