import { patients } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { requireSubmission, submissionDto } from './submissions-read';

/**
 * One submission for the console's review page, WITHOUT its answers, so opening the page reads no PHI and
 * writes no access-log entry (the answers come from `GET /intake/submissions/{id}`, on the reviewer's explicit
 * request, logged there). Beside it the patient's shipping state, which the approve button's license check
 * needs: a US state alone identifies no one (HIPAA safe harbor keeps states), so it is not logged either.
 */
export async function consoleSubmission(q: Queryable, scope: Scope, id: string) {
  const row = await requireSubmission(q, scope, id);
  const patient = await scoped(q, scope).get(patients, row.patientId);
  return { ...(await submissionDto(q, scope, row)), patientState: patient?.address?.state ?? null };
}
