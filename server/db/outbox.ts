import { sql } from 'drizzle-orm';
import { jobs } from '@/db/schema';
import { now } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';
import { scoped, type Scope } from './scoped';
import type { Queryable } from './types';
import { namedStatement } from './named-sql';

// The write side of the job queue lives with the database, not in `jobs/`: domain services enqueue in
// their own transactions, and `domain` never imports `jobs` (DESIGN §3). The worker claims from `jobs/queue`.

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

const wakeStatement = namedStatement(() => sql`select pg_notify(${JOBS_CHANNEL}, '')`);

/** Wakes idle workers once the caller's transaction commits (at once outside one). */
export async function wakeWorkers(q: Queryable): Promise<void> {
  await wakeStatement.execute(q, 'wake', {});
}
