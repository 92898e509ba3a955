import { QUESTIONNAIRE_SCOPES } from './routers/intake/questionnaire.types';

/**
 * The FHIR R4 API under /v1/fhir (DESIGN decision 42), one entry per operation: what the HTTP layer serves
 * (server/http/fhir.ts) and what the OpenAPI document says (server/api/openapi-fhir.ts), from this one list.
 *
 * Served by a handler of its own rather than by tRPC procedures: FHIR answers `application/fhir+json` and every
 * error as an OperationOutcome (not the REST envelope), takes FHIR's search syntax (repeated parameters are AND,
 * commas OR, `_count`/`_offset`, modifiers such as `family:exact`) and the `$everything` path, and names resources
 * by FHIR ids. The handler keeps every rule of the procedures: the same credential → principal code, rate limit,
 * scope check, tenant and mode scoping, and the patient access log in the domain.
 */
export interface FhirOperation {
  operationId: string;
  method: 'GET' | 'POST';
  /** Path under /v1, with `{id}` for the resource id. */
  path: string;
  /** Any one of these scopes; null: no credential (the CapabilityStatement). */
  scope: string | readonly string[] | null;
  summary: string;
  /** The search parameters the operation understands (documented; the domain's parser decides). */
  searchParameters?: readonly { name: string; description: string }[];
  /** What the success answer holds, for the document. */
  returns: string;
  successStatus?: number;
  errorResponses?: Record<number, string>;
}

const page = [
  { name: '_count', description: 'Resources per page: 0 to 100, default 50 (above 100 is served as 100)' },
  { name: '_offset', description: 'Resources to skip: the `next` link sets it' },
];
const patientParam = [{ name: 'patient', description: 'The patient: `Patient/pat-…` or `pat-…`' }, ...page];

export const FHIR_OPERATIONS: readonly FhirOperation[] = [
  { operationId: 'fhirCapabilities', method: 'GET', path: '/fhir/metadata', scope: null, summary: 'The CapabilityStatement: exactly what this FHIR R4 server serves', returns: 'CapabilityStatement' },
  {
    operationId: 'fhirSearchPatients',
    method: 'GET',
    path: '/fhir/Patient',
    scope: 'patients.read',
    summary: 'Search patients (each patient served is written to its access log)',
    returns: 'Bundle (searchset) of Patient',
    searchParameters: [
      { name: '_id', description: 'The FHIR id (pat-…)' },
      { name: 'email', description: 'E-mail address (case-insensitive exact match)' },
      { name: 'family', description: 'Family name, starts with (case-insensitive); also family:exact and family:contains' },
      { name: 'birthdate', description: 'Date of birth: YYYY, YYYY-MM or YYYY-MM-DD with an optional prefix eq, ne, lt, gt, le, ge' },
      { name: 'identifier', description: 'The patient id as the REST API spells it (pat_…), or system|value' },
      ...page,
    ],
  },
  { operationId: 'fhirReadPatient', method: 'GET', path: '/fhir/Patient/{id}', scope: 'patients.read', summary: 'Read a patient (US Core birth sex, telecom, address)', returns: 'Patient' },
  {
    operationId: 'fhirPatientEverything',
    method: 'GET',
    path: '/fhir/Patient/{id}/$everything',
    scope: 'patients.read',
    summary: "A patient's everything: the patient, order lines (with orders.read), questionnaire responses, and the practitioners and questionnaires they refer to",
    returns: 'Bundle (searchset)',
    searchParameters: page,
  },
  { operationId: 'fhirReadPractitioner', method: 'GET', path: '/fhir/Practitioner/{id}', scope: ['orders.read', 'patients.read', 'intake.review'], summary: 'Read a provider (NPI under http://hl7.org/fhir/sid/us-npi)', returns: 'Practitioner' },
  {
    operationId: 'fhirImportQuestionnaire',
    method: 'POST',
    path: '/fhir/Questionnaire',
    scope: QUESTIONNAIRE_SCOPES,
    summary: "Import a FHIR Questionnaire as a pending version of the clinic's questionnaire, inert until a provider approves it",
    returns: 'Questionnaire (status draft)',
    successStatus: 201,
    errorResponses: { 422: 'An element that cannot be imported, each named by linkId (OperationOutcome); nothing saved' },
  },
  { operationId: 'fhirReadQuestionnaire', method: 'GET', path: '/fhir/Questionnaire/{id}', scope: QUESTIONNAIRE_SCOPES, summary: 'Read a questionnaire version (canonical url and version; approved ones active)', returns: 'Questionnaire' },
  { operationId: 'fhirSearchQuestionnaireResponses', method: 'GET', path: '/fhir/QuestionnaireResponse', scope: 'patients.read', summary: "Search a patient's questionnaire responses (intake submissions)", returns: 'Bundle (searchset) of QuestionnaireResponse', searchParameters: patientParam },
  { operationId: 'fhirReadQuestionnaireResponse', method: 'GET', path: '/fhir/QuestionnaireResponse/{id}', scope: 'patients.read', summary: 'Read an intake submission with its answers', returns: 'QuestionnaireResponse' },
  { operationId: 'fhirSearchMedicationRequests', method: 'GET', path: '/fhir/MedicationRequest', scope: 'orders.read', summary: "Search a patient's order lines", returns: 'Bundle (searchset) of MedicationRequest', searchParameters: patientParam },
  { operationId: 'fhirReadMedicationRequest', method: 'GET', path: '/fhir/MedicationRequest/{id}', scope: 'orders.read', summary: 'Read an order line (id ord-…-N)', returns: 'MedicationRequest' },
];

export const FHIR_PATH = '/fhir';
export const isFhirPath = (apiPath: string) => apiPath === FHIR_PATH || apiPath.startsWith(`${FHIR_PATH}/`);
