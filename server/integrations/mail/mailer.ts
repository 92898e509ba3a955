import fs from 'node:fs/promises';
import path from 'node:path';
import { logger } from '@/server/lib/logger';
import { newId } from '@/server/lib/ids';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The one link the message exists to deliver, logged in development so no mail server is needed. */
  link?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** SMTP through nodemailer when SMTP_URL is set; otherwise a development outbox of JSON files. */
export async function createMailer(opts: { smtpUrl?: string; outboxDir: string; from: string }): Promise<Mailer> {
  if (opts.smtpUrl) {
    const nodemailer = await import('nodemailer');
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(m) {
        await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text });
      },
    };
  }
  return {
    async send(m) {
      // Sign-in links in these files are credentials: only the server's own user may read them.
      await fs.mkdir(opts.outboxDir, { recursive: true, mode: 0o700 });
      const file = path.join(opts.outboxDir, `${Date.now()}-${newId('request').slice(4)}.json`);
      await fs.writeFile(file, JSON.stringify({ ...m, from: opts.from, sentAt: new Date().toISOString() }, null, 2), { mode: 0o600 });
      logger.info({ file }, `mail written to the development outbox${m.link ? `: ${m.link}` : ''}`);
    },
  };
}
