import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { NOTICE_CHANNELS, NOTICE_MILESTONES, type NoticeCause, type NoticeChannel, type NoticeMilestone } from '@/server/domain/notices/shared/milestones';

import { tenants } from './tenants';

export { NOTICE_CHANNELS, NOTICE_MILESTONES, type NoticeCause, type NoticeChannel, type NoticeMilestone };

/** What a notice is about: an order, or an intake submission (submission received). */
export type NoticeSubjectKind = 'order' | 'submission';

/**
 * pending: to send (the worker's job is queued); sent: handed to the channel's transport; failed: the transport
 * refused it or every retry failed; skipped: deliberately not sent, `skipReason` says why.
 */
export type NoticeStatus = 'pending' | 'sent' | 'failed' | 'skipped';
export type NoticeSkipReason = 'milestone_off' | 'opted_out' | 'no_consent' | 'no_address' | 'no_patient' | 'no_transport';

/**
 * One message to a patient per (subject, milestone, channel): the unique index makes a second record of the same
 * milestone a no-op (ON CONFLICT DO NOTHING), so retries of the triggering request, a reroute that reaches the
 * pharmacy again, or a second worker never send twice. Written in the statement that moves the order (or records
 * the submission); inserting a row queues its `patient_notice.send` job (trigger `patient_notices_enqueue`).
 * `subject` and `body` are what was sent: minimum necessary by construction (the clinic, the milestone, the
 * portal link), never a medication, condition, answer, date of birth or address. The recipient is not kept here.
 */
export const patientNotices = pgTable(
  'patient_notices',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    subjectKind: text('subject_kind').$type<NoticeSubjectKind>().notNull(),
    subjectId: text('subject_id').notNull(),
    milestone: text('milestone').$type<NoticeMilestone>().notNull(),
    channel: text('channel').$type<NoticeChannel>().notNull(),
    cause: text('cause').$type<NoticeCause>(),
    status: text('status').$type<NoticeStatus>().notNull().default('pending'),
    skipReason: text('skip_reason').$type<NoticeSkipReason>(),
    // Set when the worker resolved the recipient (the subject's patient).
    patientId: text('patient_id'),
    subject: text('subject'),
    body: text('body'),
    // The transport that took it: outbox, smtp or twilio.
    via: text('via'),
    attempts: integer('attempts').notNull().default(0),
    // When the current attempt began handing the message to its transport; null once it is recorded. A worker that
    // finds it set died mid-send: only a transport that de-duplicates by notice (the outboxes) may send again.
    sendingAt: timestamp('sending_at', { withTimezone: true }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('patient_notices_once_idx').on(t.tenantId, t.subjectKind, t.subjectId, t.milestone, t.channel), index('patient_notices_scope_idx').on(t.tenantId, t.livemode, t.id)],
);

/** Per milestone, which channels are on. */
export type NoticeSwitches = Record<NoticeMilestone, Record<NoticeChannel, boolean>>;

/**
 * A clinic's notice settings, per mode (decision 41). No row: the defaults (e-mail on for every milestone, SMS off,
 * the clinic's name as the sender, no support contact).
 */
export const noticeSettings = pgTable(
  'notice_settings',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    switches: jsonb('switches').$type<NoticeSwitches>().notNull(),
    senderName: text('sender_name'),
    supportContact: text('support_contact'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('notice_settings_scope_idx').on(t.tenantId, t.livemode)],
);
