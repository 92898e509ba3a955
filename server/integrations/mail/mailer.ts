import fs from 'node:fs/promises';
import path from 'node:path';
import { logger } from '@/server/lib/logger';
import { newId } from '@/server/lib/ids';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The one link the message exists to deliver; kept in the development outbox file, never logged. */
  link?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

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
      async send(m) {
        await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text });
      },
    };
  }
  if (opts.production && !opts.outboxInProduction) {
    return {
      async send(m) {
        logger.warn({ subject: m.subject }, 'mail not delivered: SMTP_URL is not set');
      },
    };
  }
  return {
    async send(m) {
      await fs.mkdir(opts.outboxDir, { recursive: true, mode: 0o700 });
      // mkdir's mode applies only to a directory it creates; an existing one is narrowed too.
      await fs.chmod(opts.outboxDir, 0o700);
      const file = path.join(opts.outboxDir, `${Date.now()}-${newId('request').slice(4)}.json`);
      // Written aside and renamed into place, so whoever reads the outbox never sees half a message.
      const partial = `${file}.partial`;
      await fs.writeFile(partial, JSON.stringify({ ...m, from: opts.from, sentAt: new Date().toISOString() }, null, 2), { mode: 0o600, flag: 'wx' });
      await fs.rename(partial, file);
      logger.info({ file }, 'mail written to the outbox');
    },
  };
}
