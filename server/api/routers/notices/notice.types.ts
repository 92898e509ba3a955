import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';
import { NOTICE_CAUSES, NOTICE_CHANNELS, NOTICE_MILESTONES } from '@/server/domain/notices/shared/milestones';

export const zMilestone = z.enum(NOTICE_MILESTONES).meta({ description: 'submission_received, order_sent (approved and sent to the pharmacy), order_shipped, order_delivered or needs_attention' });
export const zChannel = z.enum(NOTICE_CHANNELS);
export const zCause = z.enum(NOTICE_CAUSES).meta({ description: 'Why an order needs attention: rejected (nothing rerouted it) or cancelled' });

const zSwitch = z.object({ email: z.boolean(), sms: z.boolean() });
const zSwitches = z.object(Object.fromEntries(NOTICE_MILESTONES.map((m) => [m, zSwitch])) as Record<(typeof NOTICE_MILESTONES)[number], typeof zSwitch>);

// One line of text a patient reads in a message's subject or an SMS: no line break or other control character.
const ONE_LINE = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]*$/;
const oneLine = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} must not be empty (send null to clear it)`)
    .max(max, `${what} must be at most ${max} characters`)
    .regex(ONE_LINE, `${what} must be one line of text, without line breaks or control characters`);

export const ZNoticeSettings = z
  .object({
    object: z.literal('notice_settings'),
    livemode: z.boolean(),
    milestones: zSwitches.meta({ description: 'Per milestone, whether e-mail and SMS are sent' }),
    senderName: z.string().nullable().meta({ description: 'The name messages go out under; null = the clinic’s name' }),
    supportContact: z.string().nullable().meta({ description: 'Where patients ask questions (an e-mail, a phone number or a page), shown in every message' }),
    sender: z.string().meta({ description: 'The name messages go out under now: senderName, else the clinic’s name' }),
    clinicName: z.string().meta({ description: 'The clinic’s name, the sender when senderName is null' }),
    portalUrl: z
      .string()
      .nullable()
      .meta({ description: 'The portal a notice links to when the patient came through no active embed key: the mode’s oldest active key’s `/p/{embedKey}`; null without one' }),
    delivery: z
      .object({ email: z.enum(['smtp', 'outbox', 'none']), sms: z.enum(['twilio', 'outbox', 'none']) })
      .meta({ description: 'How this deployment delivers each channel in this mode (sandbox: outboxes only; none: production without a transport)' }),
    updatedAt: zDateTime.nullable(),
  })
  .meta({ id: 'NoticeSettings' });

const zSwitchChange = z.strictObject({ email: z.boolean().optional(), sms: z.boolean().optional() });
export const ZUpdateNoticeSettings = z
  .strictObject({
    milestones: z
      .strictObject(Object.fromEntries(NOTICE_MILESTONES.map((m) => [m, zSwitchChange.optional()])) as Record<(typeof NOTICE_MILESTONES)[number], z.ZodOptional<typeof zSwitchChange>>)
      .optional(),
    senderName: oneLine(80, 'senderName').nullable().optional(),
    supportContact: oneLine(200, 'supportContact').nullable().optional(),
  })
  .meta({ id: 'UpdateNoticeSettings' });

export const ZNoticePreview = z
  .object({
    object: z.literal('notice_preview'),
    milestone: zMilestone,
    channel: zChannel,
    cause: zCause.nullable(),
    subject: z.string().nullable().meta({ description: 'The e-mail subject; null for SMS' }),
    text: z.string(),
  })
  .meta({ id: 'NoticePreview' });

export const ZPatientNotice = z
  .object({
    id: z.string(),
    object: z.literal('patient_notice'),
    orderId: z.string(),
    milestone: zMilestone,
    cause: zCause.nullable(),
    channel: zChannel,
    status: z.enum(['pending', 'sent', 'failed', 'skipped']),
    skipReason: z
      .enum(['milestone_off', 'opted_out', 'no_consent', 'no_address', 'no_patient', 'no_transport'])
      .nullable()
      .meta({ description: 'Why a skipped notice was not sent' }),
    attempts: z.number().int(),
    lastError: z.string().nullable().meta({ description: 'The last failure (never the recipient or the text)' }),
    subject: z.string().nullable(),
    text: z.string().nullable().meta({ description: 'What was sent (no medication, condition, answer, date of birth or address)' }),
    via: z.string().nullable().meta({ description: 'smtp, outbox or twilio' }),
    sentAt: zDateTime.nullable(),
    createdAt: zDateTime,
    updatedAt: zDateTime,
  })
  .meta({ id: 'PatientNotice' });
