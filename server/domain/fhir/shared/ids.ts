/**
 * FHIR ids (DESIGN decision 42) are the project's ids with `_` written `-`: a FHIR id is 1 to 64 of
 * `A-Z a-z 0-9 - .`, and ours are `prefix_suffix` (a lowercase prefix, one underscore, a base32 suffix), so the
 * mapping is one-to-one. An order line is its order's FHIR id and the line's number from 1 (`ord-…-2`). Pure:
 * the console builds its FHIR links with it too.
 */
const FHIR = /^([a-z]{2,5})-([0-9a-z]{26})$/;
const LINE = /^(ord)-([0-9a-z]{26})-([1-9]\d{0,2})$/;

export const toFhirId = (id: string): string => id.replace('_', '-');

/** Our id for a FHIR id of the expected prefix; null when it is not one (the caller answers 404). */
export function fromFhirId(fhirId: string, prefix: string): string | null {
  const m = FHIR.exec(fhirId);
  return m && m[1] === prefix ? `${m[1]}_${m[2]}` : null;
}

export const orderLineFhirId = (orderId: string, index: number): string => `${toFhirId(orderId)}-${index + 1}`;

/** The order id and the line's index (from 0) of a MedicationRequest id; null when it is not one. */
export function fromOrderLineFhirId(fhirId: string): { orderId: string; index: number } | null {
  const m = LINE.exec(fhirId);
  return m ? { orderId: `${m[1]}_${m[2]}`, index: Number(m[3]) - 1 } : null;
}


/** The FHIR path of a patient's or an order's resources, for links: `Patient/pat-…`, `MedicationRequest?patient=…`. */
export const fhirPaths = {
  patient: (patientId: string) => `/v1/fhir/Patient/${toFhirId(patientId)}`,
  everything: (patientId: string) => `/v1/fhir/Patient/${toFhirId(patientId)}/$everything`,
  orderLines: (orderId: string, lineCount: number) => Array.from({ length: lineCount }, (_, i) => `/v1/fhir/MedicationRequest/${orderLineFhirId(orderId, i)}`),
};
