import { patients } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { errors } from '@/server/lib/errors';
import { recordPatientSelfAccess } from '../access-log';
import { patientStateOf } from '../patients';
import type { PatientPrincipal } from '../sign-in/patient-sessions';

type PatientRow = typeof patients.$inferSelect;

/** Texts need a phone given with consent to texts (the flow's contact step asks for it, DESIGN decision 41). */
export const smsAvailable = (row: Pick<PatientRow, 'phone' | 'smsConsentAt'>) => Boolean(row.phone && row.smsConsentAt);

/** What the patient reads of their own record in the portal: how to reach them and where to ship, nothing clinical. */
export function toPatientProfile(row: PatientRow) {
  return {
    object: 'patient_profile' as const,
    livemode: row.livemode,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    shippingAddress: row.address,
    state: patientStateOf(row),
    notifications: { email: row.notifyEmail, sms: row.notifySms && smsAvailable(row), smsAvailable: smsAvailable(row) },
  };
}

/** The signed-in patient's record; a session outlives nothing (patients are never deleted), so a miss is a 404. */
export async function requireOwnRecord(q: Queryable, principal: PatientPrincipal): Promise<PatientRow> {
  const row = await scoped(q, principal).get(patients, principal.patientId);
  if (!row) throw errors.notFound('patient');
  return row;
}

/** `GET /v1/patient/me`, written to the patient's access log as their own read. */
export async function readPatientProfile(db: Db, principal: PatientPrincipal, requestId: string | null) {
  return db.transaction(async (tx) => {
    const row = await requireOwnRecord(tx, principal);
    await recordPatientSelfAccess(tx, principal, 'read', requestId);
    return toPatientProfile(row);
  });
}
