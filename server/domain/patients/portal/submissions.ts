import { and, desc, eq, isNull, ne, or } from 'drizzle-orm';
import { intakeSubmissions } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { recordPatientSelfAccess } from '../access-log';
import type { PatientPrincipal } from '../sign-in/patient-sessions';
import { submissionWords } from './patient-words';

/** A patient sees at most this many submissions, newest first. */
export const PATIENT_SUBMISSIONS_SHOWN = 100;

/**
 * `GET /v1/patient/submissions`: the patient's questionnaires sent to the clinic, newest first: the short
 * reference they were shown, the date and the outcome in words; never the engine's hits, flags or a reviewer's
 * note. A submission still flagged `identity_mismatch` (DESIGN decision 32) is left out: until someone at the
 * clinic decides, it is not known to be this patient's. One access-log entry.
 */
export async function listPatientSubmissions(db: Db, principal: PatientPrincipal, requestId: string | null) {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: intakeSubmissions.id, reference: intakeSubmissions.reference, status: intakeSubmissions.status, orderId: intakeSubmissions.orderId, createdAt: intakeSubmissions.createdAt })
      .from(intakeSubmissions)
      .where(
        scoped(tx, principal).where(
          intakeSubmissions,
          and(eq(intakeSubmissions.patientId, principal.patientId), or(isNull(intakeSubmissions.identityStatus), ne(intakeSubmissions.identityStatus, 'mismatch'))),
        ),
      )
      .orderBy(desc(intakeSubmissions.id))
      .limit(PATIENT_SUBMISSIONS_SHOWN);
    await recordPatientSelfAccess(tx, principal, 'list', requestId);
    return rows.map((r) => {
      const words = submissionWords(r.status);
      return {
        object: 'patient_submission' as const,
        reference: r.reference,
        submittedAt: r.createdAt.toISOString(),
        outcome: r.status,
        outcomeLabel: words.label,
        nextStep: words.next,
        orderId: r.orderId,
      };
    });
  });
}
