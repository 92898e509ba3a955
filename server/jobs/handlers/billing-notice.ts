import { DUNNING_STAGES, type DunningStage } from '@/db/schema/billing';
import { BILLING_NOTICE_JOB } from '@/server/domain/billing/accounts';
import { sendBillingNotice } from '@/server/domain/billing/notices';
import { createMailer, mailerOptionsOf, type Mailer } from '@/server/integrations/mail/mailer';
import { publicBaseUrl, type Config } from '@/server/lib/config';
import type { JobHandler } from './types';

// One mailer per configuration, i.e. per process (tests start apps with their own outbox directories).
const mailers = new WeakMap<Config, Promise<Mailer>>();

function mailerFor(config: Config): Promise<Mailer> {
  let mailer = mailers.get(config);
  if (!mailer) {
    mailer = createMailer(mailerOptionsOf(config));
    mailers.set(config, mailer);
  }
  return mailer;
}

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
