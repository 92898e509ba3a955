/** One text message. `text` is the whole message; `key` names it for an outbox (see SmsSender.send). */
export interface SmsMessage {
  /** E.164, e.g. +15551234567. */
  to: string;
  text: string;
  key?: string;
}

/** How a sender delivers: into the outbox directory, through Twilio, or not at all (production without either). */
export type SmsTransport = 'outbox' | 'twilio' | 'dropped';

/**
 * The SMS port (DESIGN decision 41). `send` resolves once the provider accepted the message, or throws: an
 * `SmsRefused` when the provider refused this very message (a bad number, an unsubscribed handset), which no retry
 * will change; any other error is worth retrying. With the same `key`, the outbox writes one file however often
 * it is sent; Twilio has no such key, so its caller must not send twice.
 */
export interface SmsSender {
  readonly transport: SmsTransport;
  send(message: SmsMessage): Promise<void>;
}

/** A refusal no retry will change. Its message names the provider's status and code only, never the number or text. */
export class SmsRefused extends Error {
  readonly permanent = true;
  constructor(message: string) {
    super(message);
    this.name = 'SmsRefused';
  }
}
