import { and, asc, eq } from 'drizzle-orm';
import { orders, patientNotices } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { requireTenant } from '@/server/domain/ops/tenants';
import { portalUrl } from '@/server/domain/patients/portal-link';
import { defaultEmbedKey } from './portal';
import { readSettings, senderOf, updateSettings, type NoticeSettings, type SettingsChanges } from './settings';
import { renderMessage } from './shared/messages';
import type { NoticeCause, NoticeChannel, NoticeMilestone } from './shared/milestones';

/** How this deployment delivers each channel in a mode; sandbox only ever to the outboxes (DESIGN decision 41). */
export interface DeliveryFacts {
  smtp: boolean;
  smsProvider: 'outbox' | 'twilio';
  /** Whether the outboxes are written (outside production, or with MAIL_OUTBOX_IN_PRODUCTION). */
  outboxes: boolean;
}

export function deliveryIn(f: DeliveryFacts, livemode: boolean) {
  const outbox = f.outboxes ? ('outbox' as const) : ('none' as const);
  return {
    email: livemode && f.smtp ? ('smtp' as const) : outbox,
    sms: livemode && f.smsProvider === 'twilio' ? ('twilio' as const) : outbox,
  };
}

async function view(db: Db, scope: Scope, settings: NoticeSettings, delivery: DeliveryFacts, publicUrl: string) {
  const key = await defaultEmbedKey(db, scope);
  return {
    object: 'notice_settings' as const,
    livemode: scope.livemode,
    milestones: settings.switches,
    senderName: settings.senderName,
    supportContact: settings.supportContact,
    sender: await senderOf(db, scope, settings),
    clinicName: (await requireTenant(db, scope.tenantId)).name,
    portalUrl: key ? portalUrl(publicUrl, key) : null,
    delivery: deliveryIn(delivery, scope.livemode),
    updatedAt: settings.updatedAt?.toISOString() ?? null,
  };
}

export async function getNoticeSettings(db: Db, scope: Scope, delivery: DeliveryFacts, publicUrl: string) {
  return view(db, scope, await readSettings(db, scope), delivery, publicUrl);
}

export async function patchNoticeSettings(db: Db, scope: Scope, changes: SettingsChanges, delivery: DeliveryFacts, publicUrl: string) {
  return view(db, scope, await updateSettings(db, scope, changes), delivery, publicUrl);
}

/** The sample a preview shows for a shipment: a carrier and a tracking page, never a real one. */
export const SAMPLE_SHIPMENT = { carrier: 'UPS', trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784', trackingNumber: '1Z999AA10123456784' };

/**
 * One message as a patient would get it with the clinic's current settings: the portal of the mode's default key
 * (a sample address when it has none yet) and a sample unsubscribe link.
 */
export async function previewNotice(db: Db, scope: Scope, input: { milestone: NoticeMilestone; channel: NoticeChannel; cause?: NoticeCause }, publicUrl: string) {
  const settings = await readSettings(db, scope);
  const key = await defaultEmbedKey(db, scope);
  const cause = input.milestone === 'needs_attention' ? (input.cause ?? 'rejected') : null;
  const message = renderMessage({
    milestone: input.milestone,
    cause,
    channel: input.channel,
    sender: await senderOf(db, scope, settings),
    supportContact: settings.supportContact,
    portalUrl: portalUrl(publicUrl, key ?? 'emb_your_embed_key'),
    unsubscribeUrl: `${publicUrl}/unsubscribe?token=sample`,
    sandbox: !scope.livemode,
    shipment: SAMPLE_SHIPMENT,
  });
  return { object: 'notice_preview' as const, milestone: input.milestone, channel: input.channel, cause, subject: message.subject, text: message.text };
}

/** What the patient was told about an order, oldest first: each milestone per channel, its status and the text sent. */
export async function listOrderNotices(db: Db, scope: Scope, orderId: string) {
  await scoped(db, scope).require(orders, orderId, 'order');
  const rows = await db
    .select()
    .from(patientNotices)
    .where(and(scoped(db, scope).where(patientNotices, eq(patientNotices.subjectKind, 'order'), eq(patientNotices.subjectId, orderId))))
    .orderBy(asc(patientNotices.id));
  return rows.map((n) => ({
    id: n.id,
    object: 'patient_notice' as const,
    orderId,
    milestone: n.milestone,
    cause: n.cause,
    channel: n.channel,
    status: n.status,
    skipReason: n.skipReason,
    attempts: n.attempts,
    lastError: n.status === 'sent' ? null : n.lastError,
    subject: n.subject,
    text: n.body,
    via: n.via,
    sentAt: n.sentAt?.toISOString() ?? null,
    createdAt: n.createdAt.toISOString(),
    updatedAt: n.updatedAt.toISOString(),
  }));
}
