import { intakeSubmissions, orders, patients, type NoticeChannel, type NoticeSkipReason, type Shipment } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import type { NoticeSettings } from './settings';

type PatientRow = typeof patients.$inferSelect;
type NoticeRow = { subjectKind: 'order' | 'submission'; subjectId: string; milestone: keyof NoticeSettings['switches']; channel: NoticeChannel };

/** The notice's subject as the sender needs it: whose it is, and the shipment of a shipped order. */
export interface SubjectFacts {
  patient: PatientRow | null;
  shipment: Shipment | null;
}

export async function subjectFacts(q: Queryable, scope: Scope, notice: NoticeRow): Promise<SubjectFacts> {
  const s = scoped(q, scope);
  const owner = notice.subjectKind === 'order' ? await s.get(orders, notice.subjectId) : await s.get(intakeSubmissions, notice.subjectId);
  const patientId = owner?.patientId ?? null;
  const patient = patientId ? ((await s.get(patients, patientId)) ?? null) : null;
  return { patient, shipment: owner && 'shipment' in owner ? owner.shipment : null };
}

/** Where the notice goes: the patient's e-mail, or their phone for SMS. */
export const addressOf = (patient: PatientRow, channel: NoticeChannel) => (channel === 'email' ? patient.email : patient.phone);

/**
 * Why a notice is not sent, decided when the worker sends it (so a change of settings or an opt-out counts at
 * once, even for a notice already queued): the clinic turned the milestone's channel off; no patient; SMS without
 * the patient's consent (given with their phone, `smsConsentAt`); the patient opted out of the channel (portal or
 * unsubscribe link); no address for the channel. Null: send it.
 */
export function skipReason(notice: NoticeRow, settings: NoticeSettings, patient: PatientRow | null): NoticeSkipReason | null {
  if (!settings.switches[notice.milestone][notice.channel]) return 'milestone_off';
  if (!patient) return 'no_patient';
  if (notice.channel === 'sms' && !patient.smsConsentAt) return 'no_consent';
  if (notice.channel === 'email' ? !patient.notifyEmail : !patient.notifySms) return 'opted_out';
  if (!addressOf(patient, notice.channel)) return 'no_address';
  return null;
}
