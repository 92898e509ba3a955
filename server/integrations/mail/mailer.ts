import { truthy, type Config } from '@/server/lib/config';
import { logger } from '@/server/lib/logger';
import { writeOutboxFile } from '@/server/integrations/outbox-file';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The one link the message exists to deliver; kept in the development outbox file, never logged. */
  link?: string;
  /** The display name to send as (a clinic's sender name), with MAIL_FROM's address. */
  fromName?: string;
  /**
   * Names the message for the outbox: sending the same key again writes nothing (a patient notice re-sent after
   * a worker died mid-send stays one file). SMTP cannot take such a key back, so it ignores it.
   */
  key?: string;
}

/** How a mailer delivers: over SMTP, into the outbox directory, or not at all (production without either). */
export type MailTransport = 'smtp' | 'outbox' | 'dropped';

export interface Mailer {
  readonly transport?: MailTransport;
  send(message: MailMessage): Promise<void>;
}

/** The address part of MAIL_FROM (`Name <addr>` or a bare address). */
const addressOf = (from: string) => /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
/** `"Name" <addr>`, the name quoted (its own quotes and backslashes escaped) and kept to one line. */
const fromWithName = (name: string, from: string) => `"${name.replace(/[\r\n]+/g, ' ').replace(/["\\]/g, (c) => `\\${c}`)}" <${addressOf(from)}>`;

/** The service's mail as configured: SMTP when SMTP_URL is set, else the outbox under its production rule. */
export const mailerOptionsOf = (config: Config): MailerOptions => ({
  smtpUrl: config.SMTP_URL,
  outboxDir: config.MAIL_OUTBOX_DIR,
  from: config.MAIL_FROM,
  production: config.NODE_ENV === 'production',
  outboxInProduction: truthy(config.MAIL_OUTBOX_IN_PRODUCTION),
});

export interface MailerOptions {
  smtpUrl?: string;
  outboxDir: string;
  from: string;
  /** Without SMTP in production, mail is dropped unless the operator opted in to the outbox (MAIL_OUTBOX_IN_PRODUCTION). */
  production: boolean;
  outboxInProduction?: boolean;
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise an outbox of JSON files, readable by the owner
 * only (a magic link or invitation in it signs its reader in). In production without SMTP the mail is not
 * delivered: the log says so, without the link, since anyone with log access could otherwise sign in.
 */
export async function createMailer(opts: MailerOptions): Promise<Mailer> {
  if (opts.smtpUrl) {
    const nodemailer = await import('nodemailer');
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      transport: 'smtp',
      async send(m) {
        await transport.sendMail({ from: m.fromName ? { name: m.fromName, address: addressOf(opts.from) } : opts.from, to: m.to, subject: m.subject, text: m.text });
      },
    };
  }
  if (opts.production && !opts.outboxInProduction) {
    return {
      transport: 'dropped',
      async send(m) {
        logger.warn({ subject: m.subject }, 'mail not delivered: SMTP_URL is not set');
      },
    };
  }
  return {
    transport: 'outbox',
    async send({ fromName, key, ...m }) {
      const from = fromName ? fromWithName(fromName, opts.from) : opts.from;
      const written = await writeOutboxFile(opts.outboxDir, key, { ...m, from, sentAt: new Date().toISOString() });
      if (written) logger.info({ file: written }, 'mail written to the outbox');
    },
  };
}
