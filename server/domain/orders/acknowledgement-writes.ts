import { and, eq, isNull, sql } from 'drizzle-orm';
import { jobs, orderDispatches } from '@/db/schema';
import { placeholders } from '@/server/db/prepared';
import { scopedStatement, type AlsoInsert, type AlsoUpdate } from '@/server/db/scoped';
import { jobRow } from '@/server/db/outbox';
import { now } from '@/server/lib/clock';
import type { MoveGuard } from './lifecycle';
import { DISPATCH_JOB, SYNC_JOB } from './order-jobs';

// The SQL of recording a pharmacy's acknowledgement of a dispatch round (dispatch.ts, step 3).

/** What recording a pharmacy's acknowledgement needs to know of the dispatch round. */
export type Acknowledgeable = Pick<typeof orderDispatches.$inferSelect, 'id' | 'orderId' | 'round' | 'connectionId'>;

const syncPayload = (dispatch: Acknowledgeable) => ({ dispatchId: dispatch.id, connectionId: dispatch.connectionId });

/**
 * What the order's move to `submitted` also requires and writes, in its one statement: it requires the
 * round's dispatch still pending (nobody recorded it since it was sent), acknowledges that dispatch and
 * schedules the order's status sync at `runAt`. The request's own dispatch job (`jobId`), not yet claimed
 * by a worker, becomes that sync job (one update instead of a new job now and a no-op dispatch run later);
 * otherwise a new sync job is written.
 */
export function acknowledgementWrites(dispatch: Acknowledgeable, externalId: string | null, runAt: Date, jobId?: string): { guard: MoveGuard; alsoUpdate: AlsoUpdate[]; also: AlsoInsert[] } {
  const guard: MoveGuard = {
    key: 'dispatch-pending',
    where: (own) =>
      sql`exists (select 1 from ${orderDispatches} where ${own(orderDispatches)} and ${orderDispatches.id} = ${sql.placeholder('ack:id')} and ${orderDispatches.status} = 'pending')`,
    values: { 'ack:id': dispatch.id },
  };
  const acknowledged: AlsoUpdate = {
    name: 'acked',
    key: 'dispatch-ack',
    build: (own, q, moved) =>
      q
        .update(orderDispatches)
        .set({ status: 'acknowledged', ...placeholders(['externalId', 'acknowledgedAt'], 'ack:') })
        .where(and(own(orderDispatches), eq(orderDispatches.id, sql.placeholder('ack:id')), eq(orderDispatches.status, 'pending'), moved))
        .returning({ id: orderDispatches.id }),
    values: { 'ack:externalId': externalId, 'ack:acknowledgedAt': now() },
  };
  const reusedAsSync = (id: string): AlsoUpdate => ({
    name: 'reused',
    key: 'job-to-sync',
    build: (own, q, moved) =>
      q
        .update(jobs)
        .set({ kind: SYNC_JOB, ...placeholders(['payload', 'runAt', 'updatedAt'], 'sync:') })
        .where(and(own(jobs), eq(jobs.id, sql.placeholder('sync:jobId')), eq(jobs.kind, DISPATCH_JOB), isNull(jobs.lockedBy), moved))
        .returning({ id: jobs.id }),
    values: { 'sync:jobId': id, 'sync:payload': syncPayload(dispatch), 'sync:runAt': runAt, 'sync:updatedAt': now() },
  });
  const syncJob: AlsoInsert = { table: jobs, rows: [jobRow({ kind: SYNC_JOB, payload: syncPayload(dispatch), runAt })], unless: jobId ? 'reused' : undefined };
  return { guard, alsoUpdate: [acknowledged, ...(jobId ? [reusedAsSync(jobId)] : [])], also: [syncJob] };
}

/** Acknowledges a round still pending, on its own (the long way, when the order was not waiting for it). */
export const acknowledgeStatement = scopedStatement((own, q) =>
  q
    .update(orderDispatches)
    .set({ status: 'acknowledged', ...placeholders(['externalId', 'acknowledgedAt']) })
    .where(and(own(orderDispatches), eq(orderDispatches.id, sql.placeholder('id')), eq(orderDispatches.status, 'pending')))
    .returning(),
);
