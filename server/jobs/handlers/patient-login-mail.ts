import { PATIENT_LOGIN_MAIL_JOB } from '@/server/domain/patients/sign-in/request-login';
import { sendPatientLoginMail } from '@/server/domain/patients/sign-in/login-mail';
import { createMailer, mailerOptionsOf, type Mailer } from '@/server/integrations/mail/mailer';
import { resolveAuthSecret } from '@/server/lib/auth-secret';
import { oncePerConfig, publicBaseUrl } from '@/server/lib/config';
import type { JobHandler } from './types';

interface SignInMail {
  /** Live patients' mail: SMTP, or the outbox under the mail outbox's rules. */
  mailer: Mailer;
  /** Sandbox patients' mail: the outbox only, in every deployment (sandbox never leaves the machine, DESIGN decision 41). */
  sandboxMailer: Mailer;
  secret: Uint8Array;
  publicUrl: string;
}

// One mailer and secret per configuration, i.e. per process (tests start apps with their own outbox directories).
const signInMailFor = oncePerConfig(
  async (config): Promise<SignInMail> => ({
    mailer: await createMailer(mailerOptionsOf(config)),
    sandboxMailer: await createMailer({ outboxDir: config.MAIL_OUTBOX_DIR, from: config.MAIL_FROM, production: false }),
    // The key the request side hashed the e-mail with and the verify side checks codes with.
    secret: new TextEncoder().encode(resolveAuthSecret(config)),
    publicUrl: publicBaseUrl(config),
  }),
);

/**
 * A patient's sign-in code and link (DESIGN decision 39), queued by every sign-in request; sent only for a match.
 * A sandbox portal's (synthetic) patients get theirs in the mail outbox, whatever the deployment's mail settings.
 */
export const patientLoginMailHandler: JobHandler = {
  kind: PATIENT_LOGIN_MAIL_JOB,
  async run(job, { database, config }) {
    const challengeId = job.payload.challengeId;
    if (!job.tenantId || typeof challengeId !== 'string') return { kind: 'done' };
    const deps = await signInMailFor(config);
    const mailer = job.livemode ? deps.mailer : deps.sandboxMailer;
    await sendPatientLoginMail(database.db, { ...deps, mailer }, { tenantId: job.tenantId, livemode: job.livemode }, challengeId);
    return { kind: 'done' };
  },
};
