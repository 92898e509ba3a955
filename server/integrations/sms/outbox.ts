import { logger } from '@/server/lib/logger';
import { writeOutboxFile } from '@/server/integrations/outbox-file';
import type { SmsSender } from './port';

export interface SmsOutboxOptions {
  dir: string;
  /** Under the mail outbox's rule: in production the outbox is written only when the operator opted in. */
  production: boolean;
  outboxInProduction?: boolean;
}

/**
 * SMS_PROVIDER=outbox (the default), and every sandbox message whatever the provider: one JSON file per message,
 * `{to, text, sentAt}`, in SMS_OUTBOX_DIR. In production without the opt-in (MAIL_OUTBOX_IN_PRODUCTION) nothing is
 * written or sent: a message's link opts its patient out, so the files are not left lying around unasked.
 */
export function createOutboxSms(opts: SmsOutboxOptions): SmsSender {
  if (opts.production && !opts.outboxInProduction) {
    return {
      transport: 'dropped',
      async send() {
        logger.warn('text message not delivered: SMS_PROVIDER is outbox in production without MAIL_OUTBOX_IN_PRODUCTION');
      },
    };
  }
  return {
    transport: 'outbox',
    async send(m) {
      const file = await writeOutboxFile(opts.dir, m.key, { to: m.to, text: m.text, sentAt: new Date().toISOString() });
      if (file) logger.info({ file }, 'text message written to the outbox');
    },
  };
}
