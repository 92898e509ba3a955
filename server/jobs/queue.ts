import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { jobs } from '@/db/schema';
import type { Db } from '@/server/db/types';
import { now } from '@/server/lib/clock';

export type JobRow = typeof jobs.$inferSelect;

/**
 * Claims up to `limit` due jobs for `workerId` until the lease ends. SKIP LOCKED lets any number of
 * workers claim side by side without waiting on, or ever sharing, a row.
 */
export async function claimJobs(db: Db, workerId: string, limit: number, leaseMs: number): Promise<JobRow[]> {
  const at = now();
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.status, 'pending'), lte(jobs.runAt, at), or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, at))))
    .orderBy(asc(jobs.runAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(jobs)
    .set({ lockedUntil: new Date(at.getTime() + leaseMs), lockedBy: workerId, attempts: sql`${jobs.attempts} + 1`, updatedAt: at })
    .where(inArray(jobs.id, due))
    .returning();
}

export async function finishJobs(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db.delete(jobs).where(inArray(jobs.id, ids));
}

export async function rescheduleJob(db: Db, id: string, runAt: Date, lastError: string | null): Promise<void> {
  await db.update(jobs).set({ runAt, lockedUntil: null, lockedBy: null, lastError, updatedAt: now() }).where(eq(jobs.id, id));
}

export async function buryJob(db: Db, id: string, lastError: string): Promise<void> {
  await db.update(jobs).set({ status: 'dead', lockedUntil: null, lockedBy: null, lastError, updatedAt: now() }).where(eq(jobs.id, id));
}

/** When the next job could become claimable (due, and unlocked), for the idle worker's sleep. */
export async function nextDueAt(db: Db): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<string | Date | null>`min(greatest(${jobs.runAt}, coalesce(${jobs.lockedUntil}, ${jobs.runAt})))` })
    .from(jobs)
    .where(eq(jobs.status, 'pending'));
  return row?.at ? new Date(row.at) : null;
}
