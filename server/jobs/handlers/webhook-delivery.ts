import { attemptDelivery } from '@/server/domain/webhooks/deliver';
import { DELIVERY_JOB } from '@/server/domain/webhooks/deliveries';
import { deliveryOptions } from '@/server/domain/webhooks/options';
import type { JobHandler } from './types';

export const webhookDeliveryHandler: JobHandler = {
  kind: DELIVERY_JOB,
  async run(job, { database, config }) {
    if (!job.tenantId) return { kind: 'done' };
    const deliveryId = String(job.payload.deliveryId ?? '');
    return attemptDelivery(database.db, { tenantId: job.tenantId, livemode: job.livemode }, deliveryId, deliveryOptions(config));
  },
};
