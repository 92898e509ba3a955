import { eq } from 'drizzle-orm';
import { patientNotices, type NoticeSkipReason, type NoticeStatus } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { errorText } from '@/server/lib/log-error';
import type { NoticeDeps } from './deps';
import { renderMessage } from './shared/messages';
import { noticePortalUrl } from './portal';
import { addressOf, skipReason, subjectFacts } from './recipient';
import { readSettings, senderOf } from './settings';
import { signUnsubscribeToken, unsubscribeUrl } from './unsubscribe-token';

type NoticeRow = typeof patientNotices.$inferSelect;

/** What the job does next: nothing (the notice is settled) or run again at `retryAt`. */
export type SendOutcome = { retryAt: Date | null };
const SETTLED: SendOutcome = { retryAt: null };

/** Changes a notice still pending; false when someone settled it meanwhile. */
async function settlePending(db: Db, scope: Scope, id: string, set: Partial<NoticeRow> & { status?: NoticeStatus }): Promise<boolean> {
  const rows = await db
    .update(patientNotices)
    .set({ ...set, updatedAt: now() })
    .where(scoped(db, scope).where(patientNotices, eq(patientNotices.id, id), eq(patientNotices.status, 'pending')))
    .returning({ id: patientNotices.id });
  return rows.length > 0;
}

const skip = (db: Db, scope: Scope, notice: NoticeRow, reason: NoticeSkipReason, patientId: string | null) =>
  settlePending(db, scope, notice.id, { status: 'skipped', skipReason: reason, patientId, sendingAt: null });

/**
 * The outbox job of one notice (DESIGN decision 41), at most once per notice:
 *   1. a notice no longer pending is done; one whose clinic setting, patient choice, consent or address says no
 *      is `skipped` with the reason (read now, so an opt-out is honoured even for a notice queued before it);
 *   2. the attempt is recorded (`sendingAt`, attempts + 1, the text) before the transport is called, so a worker
 *      that dies mid-send leaves a mark: the next run sends again only through a transport that de-duplicates by
 *      notice (the outboxes, keyed by the notice), and otherwise records `failed` rather than risk a second message;
 *   3. the transport takes it: `sent`; it refuses this very message: `failed`; it fails otherwise: retried on
 *      NOTICE_RETRY_SCHEDULE, then `failed`.
 * Nothing here touches the order or the submission: a notice that fails holds nothing up.
 */
export async function sendNotice(db: Db, scope: Scope, noticeId: string, deps: NoticeDeps): Promise<SendOutcome> {
  const notice = await scoped(db, scope).get(patientNotices, noticeId);
  if (!notice || notice.status !== 'pending') return SETTLED;
  const settings = await readSettings(db, scope);
  const { patient, shipment } = await subjectFacts(db, scope, notice);
  const reason = skipReason(notice, settings, patient);
  if (reason || !patient) return (await skip(db, scope, notice, reason ?? 'no_patient', patient?.id ?? null), SETTLED);
  const sandbox = !scope.livemode;
  const transport = notice.channel === 'email' ? await deps.transports.email(sandbox) : await deps.transports.sms(sandbox);
  if (transport.transport === 'dropped') return (await skip(db, scope, notice, 'no_transport', patient.id), SETTLED);
  const idempotent = transport.transport === 'outbox';
  if (notice.sendingAt && !idempotent) {
    await settlePending(db, scope, notice.id, {
      status: 'failed',
      sendingAt: null,
      lastError: 'The worker stopped while handing this message over, so whether it went out is unknown; it is not sent again, so the patient never gets it twice.',
    });
    return SETTLED;
  }

  const token = signUnsubscribeToken(deps.secret, { tenantId: scope.tenantId, livemode: scope.livemode, patientId: patient.id, channel: notice.channel });
  const message = renderMessage({
    milestone: notice.milestone,
    cause: notice.cause,
    channel: notice.channel,
    sender: await senderOf(db, scope, settings),
    supportContact: settings.supportContact,
    portalUrl: await noticePortalUrl(db, scope, { kind: notice.subjectKind, id: notice.subjectId }, deps.publicUrl),
    unsubscribeUrl: unsubscribeUrl(deps.publicUrl, token),
    sandbox,
    shipment: shipment && { carrier: shipment.carrier, trackingUrl: shipment.trackingUrl, trackingNumber: shipment.trackingNumber },
  });
  const attempts = notice.attempts + 1;
  const started = await settlePending(db, scope, notice.id, { sendingAt: now(), attempts, patientId: patient.id, subject: message.subject, body: message.text, via: transport.transport });
  if (!started) return SETTLED;

  // The outbox file is named by the notice (its time first, so the directory lists in order): one file per notice.
  const key = `${notice.createdAt.getTime()}-${notice.id}`;
  const to = addressOf(patient, notice.channel)!;
  try {
    if (notice.channel === 'email') {
      await (transport as Awaited<ReturnType<NoticeDeps['transports']['email']>>).send({ to, subject: message.subject!, text: message.text, fromName: await senderOf(db, scope, settings), key });
    } else {
      await (transport as Awaited<ReturnType<NoticeDeps['transports']['sms']>>).send({ to, text: message.text, key });
    }
  } catch (err) {
    return failedAttempt(db, scope, notice.id, attempts, err, deps);
  }
  await deps.afterHandedOver?.();
  await db
    .update(patientNotices)
    .set({ status: 'sent', sentAt: now(), sendingAt: null, lastError: null, updatedAt: now() })
    .where(scoped(db, scope).where(patientNotices, eq(patientNotices.id, notice.id), eq(patientNotices.status, 'pending')));
  return SETTLED;
}

/** A refusal, or the last retry, is `failed`; any other failure waits for the next retry. The error is kept as text without PHI. */
async function failedAttempt(db: Db, scope: Scope, id: string, attempts: number, err: unknown, deps: NoticeDeps): Promise<SendOutcome> {
  const permanent = (err as { permanent?: unknown }).permanent === true || isSmtpRefusal(err);
  const delay = deps.retryDelaysMs[attempts - 1];
  const lastError = errorText(err).slice(0, 500);
  if (permanent || delay === undefined) {
    await settlePending(db, scope, id, { status: 'failed', sendingAt: null, lastError });
    return SETTLED;
  }
  await settlePending(db, scope, id, { sendingAt: null, lastError });
  return { retryAt: new Date(now().getTime() + delay) };
}

/** An SMTP server's 5xx for this message (nodemailer's `responseCode`): a bad recipient stays bad. */
const isSmtpRefusal = (err: unknown) => {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};
