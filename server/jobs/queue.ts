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

/**
 * The queue as fr_jobs_* reports it: per kind, pending jobs due now and later, dead ones, live leases, and
 * how long the oldest due one has waited. One grouped scan of a table that a healthy deployment keeps small.
 */
export async function queueDepths(db: Db): Promise<{ kind: string; due: number; later: number; dead: number; leased: number; oldestDueAgeSeconds: number }[]> {
  const at = now();
  const rows = await db
    .select({
      kind: jobs.kind,
      due: sql<number>`count(*) filter (where ${jobs.status} = 'pending' and ${jobs.runAt} <= ${at})`.mapWith(Number),
      later: sql<number>`count(*) filter (where ${jobs.status} = 'pending' and ${jobs.runAt} > ${at})`.mapWith(Number),
      dead: sql<number>`count(*) filter (where ${jobs.status} = 'dead')`.mapWith(Number),
      leased: sql<number>`count(*) filter (where ${jobs.status} = 'pending' and ${jobs.lockedUntil} > ${at})`.mapWith(Number),
      oldestDue: sql<string | Date | null>`min(${jobs.runAt}) filter (where ${jobs.status} = 'pending' and ${jobs.runAt} <= ${at})`,
    })
    .from(jobs)
    .groupBy(jobs.kind);
  return rows.map((r) => ({
    kind: r.kind,
    due: r.due,
    later: r.later,
    dead: r.dead,
    leased: r.leased,
    oldestDueAgeSeconds: r.oldestDue ? Math.max(0, (at.getTime() - new Date(r.oldestDue).getTime()) / 1000) : 0,
  }));
}

/** Hands back the leases this worker still holds (a stop that could not wait for every job): claimable at once again. */
export async function releaseLeases(db: Db, workerId: string): Promise<number> {
  const released = await db
    .update(jobs)
    .set({ lockedUntil: null, lockedBy: null, updatedAt: now() })
    .where(and(eq(jobs.lockedBy, workerId), eq(jobs.status, 'pending')))
    .returning({ id: jobs.id });
  return released.length;
}
