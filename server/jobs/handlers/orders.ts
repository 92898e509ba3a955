import { submitDeps } from '@/server/domain/orders/deps';
import { sendFromJob } from '@/server/domain/orders/dispatch';
import { DISPATCH_JOB, PHARMACY_CANCEL_JOB, SYNC_JOB } from '@/server/domain/orders/order-jobs';
import { cancelAtPharmacy } from '@/server/domain/orders/recall';
import { syncDispatch } from '@/server/domain/orders/sync';
import type { JobHandler } from './types';

const scopeOf = (job: { tenantId: string | null; livemode: boolean }) => ({ tenantId: job.tenantId!, livemode: job.livemode });

/** The outbox side of DESIGN decision 9: sends any dispatch round its request did not (lookup before send). */
export const orderDispatchHandler: JobHandler = {
  kind: DISPATCH_JOB,
  async run(job, { database, config }) {
    if (!job.tenantId) return { kind: 'done' };
    await sendFromJob(database.db, scopeOf(job), String(job.payload.dispatchId ?? ''), submitDeps(config));
    return { kind: 'done' };
  },
};

/** Polls the pharmacy for an order in flight until it is delivered, rejected or cancelled. */
export const orderSyncHandler: JobHandler = {
  kind: SYNC_JOB,
  async run(job, { database, config }) {
    if (!job.tenantId) return { kind: 'done' };
    const next = await syncDispatch(database.db, scopeOf(job), String(job.payload.dispatchId ?? ''), submitDeps(config));
    return next ? { kind: 'retry', at: next, error: null } : { kind: 'done' };
  },
};

/** Tells the pharmacy an order was cancelled; an unreachable pharmacy is retried with backoff. */
export const pharmacyCancelHandler: JobHandler = {
  kind: PHARMACY_CANCEL_JOB,
  async run(job, { database, config }) {
    if (!job.tenantId) return { kind: 'done' };
    await cancelAtPharmacy(database.db, scopeOf(job), String(job.payload.dispatchId ?? ''), submitDeps(config));
    return { kind: 'done' };
  },
};
