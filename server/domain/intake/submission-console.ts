import { patients } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Database } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { patientStateOf } from '@/server/domain/patients/patients';
import { identityRecords } from './identity-resolution';
import { requireSubmission, submissionDto, submittedStateOf } from './submissions-read';

/**
 * One submission for the console's review page, WITHOUT its answers (they come from `GET
 * /intake/submissions/{id}`, on the reviewer's explicit request, logged there). Beside it the state the
 * approve button's license check needs (the submission's reconciled state, else the patient's): a US state
 * alone identifies no one (HIPAA safe harbor keeps states), so it is not logged. A submission flagged by
 * patient matching also carries both people side by side (`identity.existing`, `identity.submitted`) for
 * the reviewer to decide: that is a PHI read, written to the access log.
 */
export async function consoleSubmission(database: Database, principal: TenantPrincipal, id: string, requestId: string | null) {
  return database.db.transaction(async (tx) => {
    const row = await requireSubmission(tx, principal, id);
    const patient = await scoped(tx, principal).get(patients, row.patientId);
    const dto = await submissionDto(tx, principal, row);
    const patientState = (await submittedStateOf(tx, principal, row.id)) ?? (patient ? patientStateOf(patient) : null);
    const identity = dto.identity ? { ...dto.identity, ...(await identityRecords(tx, principal, row, requestId)) } : null;
    return { ...dto, patientState, identity };
  });
}
