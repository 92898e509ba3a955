import { DUNNING_STAGES, type DunningStage } from '@/db/schema/billing';
import { BILLING_NOTICE_JOB } from '@/server/domain/billing/accounts';
import { sendBillingNotice } from '@/server/domain/billing/notices';
import { createMailer, mailerOptionsOf } from '@/server/integrations/mail/mailer';
import { oncePerConfig, publicBaseUrl } from '@/server/lib/config';
import type { JobHandler } from './types';

// One mailer per configuration, i.e. per process (tests start apps with their own outbox directories).
const mailerFor = oncePerConfig((config) => createMailer(mailerOptionsOf(config)));

const isStage = (v: unknown): v is DunningStage => (DUNNING_STAGES as readonly unknown[]).includes(v);

/** The owners' dunning mail (warning, restricted, suspended), queued with the stage change that calls for it. */
export const billingNoticeHandler: JobHandler = {
  kind: BILLING_NOTICE_JOB,
  async run(job, { database, config }) {
    const stage = job.payload.stage;
    if (!job.tenantId || !isStage(stage)) return { kind: 'done' };
    const consoleUrl = publicBaseUrl(config);
    await sendBillingNotice(database.db, await mailerFor(config), { tenantId: job.tenantId, livemode: job.livemode }, { stage, requestedAt: job.createdAt }, consoleUrl);
    return { kind: 'done' };
  },
};
