import { runVerification, VERIFY_JOB } from '@/server/domain/pharmacies/verify';
import { deliveryOptions } from '@/server/domain/webhooks/options';
import { publicBaseUrl } from '@/server/lib/config';
import type { JobHandler } from './types';

/** Runs a protocol check run (issue 54), within the job's lease: its budget ends 10 s before the lease would. */
export const pharmacyVerifyHandler: JobHandler = {
  kind: VERIFY_JOB,
  async run(job, { database, config }) {
    if (!job.tenantId) return { kind: 'done' };
    const budgetMs = Math.max(5_000, Math.min(45_000, config.WORKER_LEASE_MS - 10_000));
    await runVerification(database.db, { tenantId: job.tenantId, livemode: job.livemode }, String(job.payload.runId ?? ''), {
      policy: deliveryOptions(config).policy,
      publicUrl: publicBaseUrl(config),
      budgetMs,
    });
    return { kind: 'done' };
  },
};
