import type { Mailer } from '@/server/integrations/mail/mailer';
import type { SmsSender } from '@/server/integrations/sms';

/** The transports of each channel, per mode: sandbox gets outboxes only (DESIGN decision 41). */
export interface NoticeTransports {
  email(sandbox: boolean): Promise<Mailer>;
  sms(sandbox: boolean): Promise<SmsSender>;
}

export interface NoticeDeps {
  transports: NoticeTransports;
  /** The service's secret (AUTH_SECRET): signs the unsubscribe links. */
  secret: Uint8Array;
  /** PUBLIC_URL: the base of the portal and unsubscribe links. */
  publicUrl: string;
  /** NOTICE_RETRY_SCHEDULE in milliseconds: the delay before each retry; after the last, the notice has failed. */
  retryDelaysMs: number[];
  /**
   * Called once the transport took the message, before that is recorded. The product never sets it; the notice
   * crash test's worker does, through its own notice handler (tests/helpers/notice-stall-child.ts).
   */
  afterHandedOver?: () => void | Promise<void>;
}
