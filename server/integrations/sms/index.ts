import { createOutboxSms } from './outbox';
import type { SmsSender } from './port';

export type { SmsMessage, SmsSender, SmsTransport } from './port';
export { SmsRefused } from './port';

export interface SmsOptions {
  provider: 'outbox' | 'twilio';
  outboxDir: string;
  production: boolean;
  outboxInProduction?: boolean;
  twilio?: { accountSid: string; authToken: string; from: string; apiUrl?: string };
}

/** The configured SMS sender (SMS_PROVIDER). The Twilio SDK is loaded only when it is used. */
export async function createSmsSender(opts: SmsOptions): Promise<SmsSender> {
  if (opts.provider === 'twilio' && opts.twilio) return (await import('./twilio')).createTwilioSms(opts.twilio);
  return createOutboxSms({ dir: opts.outboxDir, production: opts.production, outboxInProduction: opts.outboxInProduction });
}

/** Sandbox messages never leave the machine (DESIGN decision 41): always the outbox, whatever the provider. */
export function createSandboxSms(opts: Pick<SmsOptions, 'outboxDir' | 'production' | 'outboxInProduction'>): SmsSender {
  return createOutboxSms({ dir: opts.outboxDir, production: opts.production, outboxInProduction: opts.outboxInProduction });
}
