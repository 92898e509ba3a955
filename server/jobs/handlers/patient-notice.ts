import type { NoticeDeps } from '@/server/domain/notices/deps';
import { NOTICE_JOB } from '@/server/domain/notices/notice-jobs';
import { sendNotice } from '@/server/domain/notices/send';
import { createMailer, mailerOptionsOf } from '@/server/integrations/mail/mailer';
import { createSandboxSms, createSmsSender } from '@/server/integrations/sms';
import { resolveAuthSecret } from '@/server/lib/auth-secret';
import { oncePerConfig, publicBaseUrl } from '@/server/lib/config';
import { parseSchedule } from '@/server/lib/duration';
import type { JobHandler } from './types';

/**
 * The transports and keys of patient notices, once per configuration (i.e. per process; tests start apps with
 * their own outbox directories; the notice crash test's worker builds its handler from them). Live mail goes over SMTP when SMTP_URL is set, live texts through SMS_PROVIDER;
 * sandbox notices only ever reach the outboxes (DESIGN decision 41), under the outbox's production rule.
 */
export const noticeDeps = oncePerConfig((config): NoticeDeps => {
  const mailOptions = mailerOptionsOf(config);
  const { production, outboxInProduction } = mailOptions;
  const mail = (sandbox: boolean) => createMailer({ ...mailOptions, ...(sandbox ? { smtpUrl: undefined } : {}) });
  const twilio = config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN && config.TWILIO_FROM
    ? { accountSid: config.TWILIO_ACCOUNT_SID, authToken: config.TWILIO_AUTH_TOKEN, from: config.TWILIO_FROM, apiUrl: config.TWILIO_API_URL }
    : undefined;
  const smsOptions = { provider: config.SMS_PROVIDER, outboxDir: config.SMS_OUTBOX_DIR, production, outboxInProduction, twilio };
  const [liveMail, sandboxMail, liveSms] = [mail(false), mail(true), createSmsSender(smsOptions)];
  const sandboxSms = Promise.resolve(createSandboxSms(smsOptions));
  return {
    transports: { email: (sandbox) => (sandbox ? sandboxMail : liveMail), sms: (sandbox) => (sandbox ? sandboxSms : liveSms) },
    secret: new TextEncoder().encode(resolveAuthSecret(config)),
    publicUrl: publicBaseUrl(config),
    retryDelaysMs: parseSchedule(config.NOTICE_RETRY_SCHEDULE),
  };
});

/** One patient notice (DESIGN decision 41), queued by the database as the notice is recorded. */
export const patientNoticeHandler: JobHandler = {
  kind: NOTICE_JOB,
  async run(job, { database, config }) {
    const noticeId = job.payload.noticeId;
    if (!job.tenantId || typeof noticeId !== 'string') return { kind: 'done' };
    const { retryAt } = await sendNotice(database.db, { tenantId: job.tenantId, livemode: job.livemode }, noticeId, noticeDeps(config));
    return retryAt ? { kind: 'retry', at: retryAt, error: 'the transport failed; retrying' } : { kind: 'done' };
  },
};
