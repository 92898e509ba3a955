import { patients } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { sentFields } from '@/server/lib/sent-fields';
import { recordPatientSelfAccess } from '../access-log';
import type { PatientPrincipal } from '../sign-in/patient-sessions';
import { requireOwnRecord, smsAvailable, toPatientProfile } from './profile';

/**
 * `PATCH /v1/patient/me/notifications {email?, sms?}` (DESIGN decisions 40, 41): the patient's own choice per
 * channel, honoured from the next message on. Texts can be turned on only by a patient whose record holds a phone
 * given with consent to texts: otherwise 409 `sms_consent_required`, nothing changed (the consent is given where
 * the phone is, on the clinic's form, never assumed here). Turning anything off is always allowed.
 */
export async function updatePatientNotifications(db: Db, principal: PatientPrincipal, input: { email?: boolean; sms?: boolean }, requestId: string | null) {
  return db.transaction(async (tx) => {
    const row = await requireOwnRecord(tx, principal);
    if (input.sms === true && !smsAvailable(row)) {
      throw errors.conflict(
        'Text messages need a mobile number given with your consent to texts. Give it to your clinic on its form first; e-mail notices keep working meanwhile.',
        'sms_consent_required',
      );
    }
    const set = sentFields({ notifyEmail: input.email, notifySms: input.sms });
    const updated = await scoped(tx, principal).update(patients, row.id, { ...set, updatedAt: now() });
    await recordPatientSelfAccess(tx, principal, 'update', requestId);
    return toPatientProfile(updated ?? row).notifications;
  });
}
