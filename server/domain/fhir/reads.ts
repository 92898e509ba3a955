import { and, eq } from 'drizzle-orm';
import type { MedicationRequest, Patient, Practitioner, Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import { intakeSubmissions, orders, patients, questionnaires, users } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { recordAccess } from '@/server/domain/patients/access-log';
import { errors } from '@/server/lib/errors';
import { medicationRequestsOf, questionnaireResponsesOf } from './load';
import { toFhirPatient } from './patient';
import { toFhirPractitioner } from './practitioner';
import { toFhirQuestionnaire } from './questionnaire';
import { fromFhirId, fromOrderLineFhirId } from './shared/ids';

/** Who reads, for which request, and the base the canonical URLs are built on (PUBLIC_URL). */
export interface FhirCaller {
  db: Db;
  principal: TenantPrincipal;
  requestId: string;
  publicUrl: string;
}

/** A FHIR id that is not one of ours, or not of this type: the same 404 as an unknown one (never echoed). */
const missing = (type: string) => errors.notFound(type);
function ourId(type: string, fhirId: string, prefix: string): string {
  const id = fromFhirId(fhirId, prefix);
  if (!id) throw missing(type);
  return id;
}

/** Patient/{id}: the record, its read logged in the same transaction. */
export async function readPatient(c: FhirCaller, fhirId: string): Promise<Patient> {
  const id = ourId('Patient', fhirId, 'pat');
  return c.db.transaction(async (tx) => {
    const row = await scoped(tx, c.principal).get(patients, id);
    if (!row) throw missing('Patient');
    await recordAccess(tx, c.principal, [row.id], 'read', c.requestId);
    return toFhirPatient(row);
  });
}

/** Practitioner/{id}: a provider of the caller's clinic (people belong to the clinic, not to a mode). */
export async function readPractitioner(c: FhirCaller, fhirId: string): Promise<Practitioner> {
  const id = ourId('Practitioner', fhirId, 'usr');
  const [row] = await c.db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, c.principal.tenantId), eq(users.id, id), eq(users.role, 'provider')));
  if (!row) throw missing('Practitioner');
  return toFhirPractitioner(row);
}

/** Questionnaire/{id}: any version of the clinic's questionnaires, its FHIR status saying whether it is in use. */
export async function readQuestionnaire(c: FhirCaller, fhirId: string): Promise<Questionnaire> {
  const row = await scoped(c.db, c.principal).get(questionnaires, ourId('Questionnaire', fhirId, 'iq'));
  if (!row) throw missing('Questionnaire');
  return toFhirQuestionnaire(row, c.publicUrl);
}

/** QuestionnaireResponse/{id}: a submission with its answers; the patient's access log gets `intake_read`. */
export async function readQuestionnaireResponse(c: FhirCaller, fhirId: string): Promise<QuestionnaireResponse> {
  const id = ourId('QuestionnaireResponse', fhirId, 'isub');
  return c.db.transaction(async (tx) => {
    const row = await scoped(tx, c.principal).get(intakeSubmissions, id);
    const [resource] = row ? await questionnaireResponsesOf(tx, c.principal, [row], c.publicUrl) : [];
    if (!row || !resource) throw missing('QuestionnaireResponse');
    await recordAccess(tx, c.principal, [row.patientId], 'intake_read', c.requestId);
    return resource;
  });
}

/** MedicationRequest/{id}: one line of an order; the order's patient's access log gets `read`. */
export async function readMedicationRequest(c: FhirCaller, fhirId: string): Promise<MedicationRequest> {
  const line = fromOrderLineFhirId(fhirId);
  if (!line) throw missing('MedicationRequest');
  return c.db.transaction(async (tx) => {
    const order = await scoped(tx, c.principal).get(orders, line.orderId);
    if (!order || line.index >= order.items.length) throw missing('MedicationRequest');
    const [resource] = await medicationRequestsOf(tx, c.principal, [order], [line]);
    if (order.patientId) await recordAccess(tx, c.principal, [order.patientId], 'read', c.requestId);
    return resource!;
  });
}
