import type { CapabilityStatement, CapabilityStatementRestResource } from '@medplum/fhirtypes';
import { FHIR_VERSION } from './systems';

const TYPES = { _id: 'token', email: 'token', family: 'string', birthdate: 'date', identifier: 'token', patient: 'reference' } as const;
const param = (name: keyof typeof TYPES, documentation: string) => ({ name, type: TYPES[name], documentation });
const read = (type: CapabilityStatementRestResource['type'], profile?: string): CapabilityStatementRestResource => ({
  type,
  ...(profile ? { supportedProfile: [profile] } : {}),
  interaction: [{ code: 'read' }],
  versioning: 'no-version',
  readHistory: false,
  updateCreate: false,
});

/**
 * GET /fhir/metadata: exactly what this server serves (DESIGN decision 42), for any client to discover without
 * a credential.
 */
export function capabilityStatement(baseUrl: string, apiVersion: string): CapabilityStatement {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    // The API's date-form version (spec: Versioning) is the day its contract, this declaration included, last changed.
    date: apiVersion,
    publisher: 'Fulfillment Rail',
    kind: 'instance',
    software: { name: 'Fulfillment Rail', version: apiVersion },
    implementation: { description: 'Fulfillment Rail FHIR R4 API: patients, providers, questionnaires, submissions and prescriptions', url: baseUrl },
    fhirVersion: FHIR_VERSION,
    format: ['application/fhir+json', 'json'],
    rest: [
      {
        mode: 'server',
        documentation: 'Authenticate with the same bearer credential as the REST API (API key or session) and its scopes; a sandbox key sees sandbox records only.',
        security: { cors: false, description: 'Authorization: Bearer <API key | session token>. Scopes: patients.read, orders.read, intake.review or catalog.manage (questionnaires).' },
        resource: [
          {
            ...read('Patient', 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient'),
            interaction: [{ code: 'read' }, { code: 'search-type' }],
            searchParam: [
              param('_id', 'The FHIR id (pat-…)'),
              param('email', 'E-mail address, case-insensitive exact match'),
              param('family', 'Family name: starts with (case-insensitive); :exact and :contains supported'),
              param('birthdate', 'Date of birth: YYYY, YYYY-MM or YYYY-MM-DD, prefixes eq, ne, lt, gt, le, ge'),
              param('identifier', 'The patient id as the REST API spells it (pat_…), optionally system|value'),
            ],
            operation: [{ name: 'everything', definition: 'http://hl7.org/fhir/OperationDefinition/Patient-everything' }],
          },
          read('Practitioner'),
          { ...read('Questionnaire'), interaction: [{ code: 'read' }, { code: 'create' }] },
          { ...read('QuestionnaireResponse'), interaction: [{ code: 'read' }, { code: 'search-type' }], searchParam: [param('patient', 'The patient answered for (Patient/pat-…)')] },
          { ...read('MedicationRequest'), interaction: [{ code: 'read' }, { code: 'search-type' }], searchParam: [param('patient', 'The patient prescribed for (Patient/pat-…)')] },
        ],
      },
    ],
  };
}
