import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Resource } from '@medplum/fhirtypes';
import { intakeSubmissions, orders, patients, questionnaires, users } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import { hasScope } from '@/server/domain/developer/scopes';
import { recordAccess } from '@/server/domain/patients/access-log';
import { errors } from '@/server/lib/errors';
import type { Page, SearchResult } from './bundle';
import { medicationRequestsOf, questionnaireResponsesOf } from './load';
import { toFhirPatient } from './patient';
import { toFhirPractitioner } from './practitioner';
import { toFhirQuestionnaire } from './questionnaire';
import type { FhirCaller } from './reads';
import { fromFhirId } from './shared/ids';

/**
 * Patient/{id}/$everything: the patient, every line of their orders (for a credential holding `orders.read`, as
 * the REST order read), every questionnaire response, and what those refer to: the approving practitioners and
 * the questionnaire versions answered. One list, paged with `_count`/`_offset` like a search; a patient's records
 * are few, so the list is built whole and the page cut from it. The read is logged once, in the same transaction.
 */
export async function patientEverything(c: FhirCaller, fhirId: string, page: Page): Promise<SearchResult> {
  const id = fromFhirId(fhirId, 'pat');
  if (!id) throw errors.notFound('Patient');
  return c.db.transaction(async (tx) => {
    const s = scoped(tx, c.principal);
    const patient = await s.get(patients, id);
    if (!patient) throw errors.notFound('Patient');
    const orderRows = hasScope(c.principal.scopes, 'orders.read') ? await tx.select().from(orders).where(s.where(orders, eq(orders.patientId, id))).orderBy(desc(orders.id)) : [];
    const submissions = await tx.select().from(intakeSubmissions).where(s.where(intakeSubmissions, eq(intakeSubmissions.patientId, id))).orderBy(desc(intakeSubmissions.id));
    const approvers = [...new Set(orderRows.flatMap((o) => (o.approvedBy ? [o.approvedBy] : [])))];
    const practitioners = approvers.length
      ? await tx
          .select()
          .from(users)
          .where(and(eq(users.tenantId, c.principal.tenantId), inArray(users.id, approvers)))
      : [];
    const versionIds = [...new Set(submissions.map((r) => r.questionnaireId))];
    const versions = versionIds.length ? await tx.select().from(questionnaires).where(s.where(questionnaires, inArray(questionnaires.id, versionIds))) : [];
    const all: Resource[] = [
      toFhirPatient(patient),
      ...(await medicationRequestsOf(tx, c.principal, orderRows)),
      ...(await questionnaireResponsesOf(tx, c.principal, submissions, c.publicUrl)),
      ...practitioners.map(toFhirPractitioner),
      ...versions.map((v) => toFhirQuestionnaire(v, c.publicUrl)),
    ];
    await recordAccess(tx, c.principal, [id], 'read', c.requestId);
    return { matches: all.slice(page.offset, page.offset + page.count), total: all.length };
  });
}
