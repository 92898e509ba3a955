import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { jobs } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';

export type JobRow = typeof jobs.$inferSelect;

/** Workers LISTEN here; a NOTIFY sent inside a transaction is heard only once it commits. */
export const JOBS_CHANNEL = 'fr_jobs';

export interface NewJob {
  /** Set when the caller must find the job again (to turn it into another), else generated. */
  id?: string;
  kind: string;
  payload: Record<string, unknown>;
  runAt?: Date;
}

/** A job as a row, for callers that write it in a statement of their own (and then call `wakeIfDue`). */
export const jobRow = (job: NewJob, at = now()) => ({ id: job.id ?? newId('job'), kind: job.kind, payload: job.payload, runAt: job.runAt ?? at, createdAt: at, updatedAt: at });

/** Writes jobs in the caller's transaction, so they exist exactly when the state change that needs them does. */
export async function enqueueJobs(tx: Queryable, scope: Scope, list: NewJob[]): Promise<void> {
  if (list.length === 0) return;
  const at = now();
  await scoped(tx, scope).insertMany(
    jobs,
    list.map((job) => jobRow(job, at)),
  );
  await wakeIfDue(tx, list.map((job) => job.runAt), at);
}

/**
 * Wakes idle workers (once the caller's transaction commits) when one of these jobs is already due. Jobs
 * due later are found by the worker's next-due check and poll; waking it now would find nothing.
 */
export async function wakeIfDue(q: Queryable, runAts: (Date | undefined)[], at = now()): Promise<void> {
  if (runAts.some((runAt) => !runAt || runAt.getTime() <= at.getTime())) await wakeWorkers(q);
}

/** Wakes idle workers once the caller's transaction commits (at once outside one). */
export async function wakeWorkers(q: Queryable): Promise<void> {
  await q.execute(sql`select pg_notify(${JOBS_CHANNEL}, '')`);
}

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
