import type { NoticeChannel, NoticeMilestone } from '@/server/domain/notices/shared/milestones';

/** Decision 41's milestones and channels in a clinic admin's words. */
export const MILESTONE_WORDS: Record<NoticeMilestone, { label: string; when: string }> = {
  submission_received: { label: 'Request received', when: 'when the patient sends their answers (public intake, a flow or a one-time link)' },
  order_sent: { label: 'Sent to the pharmacy', when: 'when a provider approved the order and the pharmacy has it' },
  order_shipped: { label: 'Shipped', when: 'when the pharmacy ships it, with the carrier and tracking link' },
  order_delivered: { label: 'Delivered', when: 'when the carrier reports it delivered' },
  needs_attention: { label: 'Needs attention', when: 'when the pharmacy rejects the order or it is cancelled' },
};

export const CHANNEL_WORDS: Record<NoticeChannel, string> = { email: 'E-mail', sms: 'SMS' };

export const NOTICE_STATUS_WORDS: Record<string, string> = { pending: 'Pending', sent: 'Sent', failed: 'Failed', skipped: 'Not sent' };

/** Why a notice was not sent, as the order page says it. */
export const SKIP_WORDS: Record<string, string> = {
  milestone_off: 'turned off in Patient notices',
  opted_out: 'the patient opted out',
  no_consent: 'the patient has not agreed to texts',
  no_address: 'no address for this channel on file',
  no_patient: 'the order has no patient',
  no_transport: 'this deployment delivers no messages on this channel',
};

export const DELIVERY_WORDS: Record<string, string> = {
  smtp: 'sent over SMTP',
  twilio: 'sent through Twilio',
  outbox: 'written to the outbox on the server (nothing leaves the machine)',
  none: 'not delivered: this deployment has no transport for it',
};
