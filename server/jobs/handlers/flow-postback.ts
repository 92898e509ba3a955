import { attemptPostback, POSTBACK_JOB } from '@/server/domain/flows/postbacks';
import { deliveryOptions } from '@/server/domain/webhooks/options';
import type { JobHandler } from './types';

export const flowPostbackHandler: JobHandler = {
  kind: POSTBACK_JOB,
  async run(job, { database, config }) {
    if (!job.tenantId) return { kind: 'done' };
    return attemptPostback(database.db, { tenantId: job.tenantId, livemode: job.livemode }, job, deliveryOptions(config));
  },
};
