import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDICATION_REQUEST_STATUS } from '@/server/domain/fhir/medication-request';
import { createUserAndLogin, startTestApp, type TestApp } from './helpers/harness';
import { fhir, fhirId, fhirWorld, type FhirWorld } from './helpers/fhir-world';
import { publishAndApprove, weightDocument } from './helpers/intake-world';

/*
 * Issue 53 items 1, 2 and 6 (DESIGN decision 42): the CapabilityStatement without a credential; reads of Patient,
 * Practitioner, Questionnaire, QuestionnaireResponse and MedicationRequest with their mappings; the REST scopes,
 * tenant and mode isolation (404), the patient access log; errors as OperationOutcome with the status and
 * X-Request-Id; `application/fhir+json` both ways, `_format=json` accepted, any other format a 406.
 */

let app: TestApp;
let w: FhirWorld;
const get = (path: string, key: string | null = w.key, headers?: Record<string, string>) => fhir(app, 'GET', path, key, { headers });

/** The answer is an OperationOutcome with this status, FHIR's content type and the request id. */
function expectOutcome(res: Awaited<ReturnType<typeof get>>, status: number, issueCode: string, errorCode?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
  expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  expect(res.body.resourceType).toBe('OperationOutcome');
  expect(res.body.issue[0]).toMatchObject({ severity: 'error', code: issueCode });
  if (errorCode) expect(res.body.issue[0].details.coding[0].code).toBe(errorCode);
}

async function accessLog(patientId: string) {
  const res = (await app.services.database.db.execute(sql`select action, request_id from patient_access_log where patient_id = ${patientId} order by id`)) as unknown as { rows: { action: string; request_id: string }[] };
  return res.rows;
}

async function restrictedKey(scopes: string[]) {
  const res = await app.request('POST', '/v1/developer/keys', { key: w.key, body: { name: `only ${scopes.join(' ')}`, mode: 'sandbox', keyType: 'restricted', scopes } });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.key as string;
}

beforeAll(async () => {
  app = await startTestApp();
  w = await fhirWorld(app);
}, 120_000);
afterAll(async () => app?.close());

describe('GET /v1/fhir/metadata', () => {
  it('is a CapabilityStatement 4.0.1 served without a credential, declaring exactly what is served', async () => {
    const res = await get('/metadata', null);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.body).toMatchObject({ resourceType: 'CapabilityStatement', fhirVersion: '4.0.1', kind: 'instance', status: 'active' });
    const resources = res.body.rest[0].resource as { type: string; interaction: { code: string }[]; searchParam?: { name: string }[] }[];
    expect(resources.map((r) => r.type).sort()).toEqual(['MedicationRequest', 'Patient', 'Practitioner', 'Questionnaire', 'QuestionnaireResponse']);
    const patient = resources.find((r) => r.type === 'Patient')!;
    expect(patient.searchParam!.map((p) => p.name)).toEqual(expect.arrayContaining(['email', 'family', 'birthdate', 'identifier']));
    expect(resources.find((r) => r.type === 'Questionnaire')!.interaction.map((i) => i.code)).toEqual(['read', 'create']);
  });
});

describe('reads', () => {
  it('Patient: name, gender, birth date, US Core birth sex, telecom, address; the read is in the access log', async () => {
    const res = await get(`/Patient/${fhirId(w.patients.ca)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(res.body).toMatchObject({
      resourceType: 'Patient',
      id: fhirId(w.patients.ca),
      name: [{ family: 'PlantednameCA', given: ['Quinn'] }],
      gender: 'female',
      birthDate: '1971-07-17',
      extension: [{ url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex', valueCode: 'F' }],
      telecom: [{ system: 'email', value: 'quinn.ca@plantedmail.test' }],
      address: [{ line: ['9 Elm St'], city: 'Town', state: 'CA', postalCode: '90001', country: 'US' }],
      identifier: [{ value: w.patients.ca }],
    });
    expect(res.body.meta.security[0].code).toBe('HTEST');
    const log = await accessLog(w.patients.ca);
    expect(log.at(-1)).toEqual({ action: 'read', request_id: res.headers.get('x-request-id') });
  });

  it('Practitioner: the approving provider, NPI under the US NPI system; any other user is 404', async () => {
    const res = await get(`/Practitioner/${fhirId(w.provider.id)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ resourceType: 'Practitioner', id: fhirId(w.provider.id), active: true, identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893' }] });
    const developer = await createUserAndLogin(app, w.tenantId, { email: 'dev@fhir.test', role: 'developer' });
    expectOutcome(await get(`/Practitioner/${fhirId(developer.id)}`), 404, 'not-found');
  });

  it('Questionnaire: each approved version keeps its canonical url and version; a retired one says so', async () => {
    const first = await get(`/Questionnaire/${fhirId(w.questionnaire.id)}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ resourceType: 'Questionnaire', version: '1', status: 'active', title: 'Weight management' });
    expect(first.body.url).toMatch(new RegExp(`/fhir/questionnaires/${w.tenantId}/sandbox/weight$`));
    const height = first.body.item.find((i: { linkId: string }) => i.linkId === 'height');
    expect(height.extension).toEqual(
      expect.arrayContaining([
        { url: 'http://hl7.org/fhir/StructureDefinition/minValue', valueDecimal: 50 },
        { url: 'http://hl7.org/fhir/StructureDefinition/questionnaire-unit', valueCoding: { system: 'http://unitsofmeasure.org', code: 'cm', display: 'cm' } },
      ]),
    );
    expect(first.body.item.find((i: { linkId: string }) => i.linkId === 'meds')).toMatchObject({ enableWhen: [{ question: 'takesMeds', operator: '=', answerBoolean: true }] });
    const second = await publishAndApprove(app, w.key, w.provider.token, { ...weightDocument('weight'), title: 'Weight management, second edition' });
    const v2 = await get(`/Questionnaire/${fhirId(second.id)}`);
    expect(v2.body).toMatchObject({ version: '2', status: 'active', url: first.body.url });
    expect((await get(`/Questionnaire/${fhirId(w.questionnaire.id)}`)).body).toMatchObject({ version: '1', status: 'retired' });
  });

  it('QuestionnaireResponse: canonical|version, subject, authored, every answer typed as its item; logged as intake_read', async () => {
    const res = await get(`/QuestionnaireResponse/${fhirId(w.submissionId)}`);
    expect(res.status).toBe(200);
    const canonical = (await get(`/Questionnaire/${fhirId(w.questionnaire.id)}`)).body.url;
    expect(res.body).toMatchObject({ resourceType: 'QuestionnaireResponse', status: 'completed', questionnaire: `${canonical}|1`, subject: { reference: `Patient/${fhirId(w.patients.ca)}` } });
    expect(Date.parse(res.body.authored)).not.toBeNaN();
    const answers = Object.fromEntries(res.body.item.map((i: { linkId: string; answer: unknown[] }) => [i.linkId, i.answer[0]]));
    expect(answers).toEqual({
      dob: { valueDate: '1980-04-02' },
      height: { valueDecimal: 170 },
      weight: { valueDecimal: 84 },
      pregnant: { valueBoolean: false },
      takesMeds: { valueBoolean: false },
      goal: { valueCoding: { code: 'keep', display: 'Keep it off' } },
    });
    expect((await accessLog(w.patients.ca)).at(-1)).toEqual({ action: 'intake_read', request_id: res.headers.get('x-request-id') });
  });

  it('MedicationRequest: an order line with the decision-42 status, intent order, NDC and RxNorm, sig, quantity, refills, requester and authoredOn', async () => {
    const order = (await app.request('GET', `/v1/orders/${w.orderId}`, { key: w.key })).body;
    const res = await get(`/MedicationRequest/${fhirId(w.orderId)}-1`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      resourceType: 'MedicationRequest',
      status: MEDICATION_REQUEST_STATUS[order.status as keyof typeof MEDICATION_REQUEST_STATUS],
      intent: 'order',
      subject: { reference: `Patient/${fhirId(w.patients.ca)}` },
      medicationCodeableConcept: {
        coding: [
          { system: 'http://hl7.org/fhir/sid/ndc', code: '00169-4132-12' },
          { system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1991311' },
        ],
      },
      dosageInstruction: [{ text: 'Inject 0.25 mg weekly' }],
      dispenseRequest: { quantity: { value: 2 }, numberOfRepeatsAllowed: 3 },
      requester: { reference: `Practitioner/${fhirId(w.provider.id)}` },
      authoredOn: order.approvedAt,
    });
    expect(res.body.status).toBe('active');
    const second = await get(`/MedicationRequest/${fhirId(w.orderId)}-2`);
    expect(second.body.medicationCodeableConcept.coding).toBeUndefined();
    expect(second.body).toMatchObject({ dosageInstruction: [{ text: 'Use one needle per injection' }], dispenseRequest: { quantity: { value: 10 }, numberOfRepeatsAllowed: 0 } });
    expectOutcome(await get(`/MedicationRequest/${fhirId(w.orderId)}-3`), 404, 'not-found');
    expect((await accessLog(w.patients.ca)).at(-1)).toMatchObject({ action: 'read' });
  });

  it('maps every order status as decision 42 says; a cancelled order reads cancelled, a draft draft without authoredOn', async () => {
    expect(MEDICATION_REQUEST_STATUS).toEqual({
      draft: 'draft',
      pending_approval: 'draft',
      approved: 'active',
      submitting: 'active',
      submitted: 'active',
      accepted: 'active',
      shipped: 'active',
      delivered: 'completed',
      cancelled: 'cancelled',
      rejected: 'stopped',
    });
    const pending = (await w.create()).body;
    const draft = await get(`/MedicationRequest/${fhirId(pending.id)}-1`);
    expect(draft.body.status).toBe('draft');
    expect(draft.body.authoredOn).toBeUndefined();
    expect(draft.body.requester).toBeUndefined();
    expect((await w.act(pending.id, 'cancel')).status).toBe(201);
    expect((await get(`/MedicationRequest/${fhirId(pending.id)}-1`)).body.status).toBe('cancelled');
  });
});

describe('access', () => {
  const reads = () => [
    `/Patient/${fhirId(w.patients.ca)}`,
    `/Questionnaire/${fhirId(w.questionnaire.id)}`,
    `/QuestionnaireResponse/${fhirId(w.submissionId)}`,
    `/MedicationRequest/${fhirId(w.orderId)}-1`,
    `/Patient/${fhirId(w.patients.ca)}/$everything`,
  ];

  it('another clinic’s key and the other mode’s key get 404 for every id, and nothing is logged', async () => {
    const before = (await accessLog(w.patients.ca)).length;
    for (const path of reads()) {
      expectOutcome(await get(path, w.other.sandboxKey), 404, 'not-found', 'resource_missing');
      expectOutcome(await get(path, w.liveKey), 404, 'not-found', 'resource_missing');
    }
    expectOutcome(await get(`/Practitioner/${fhirId(w.provider.id)}`, w.other.sandboxKey), 404, 'not-found');
    expect((await accessLog(w.patients.ca)).length).toBe(before);
  });

  it('no credential is 401 and a missing scope 403, as OperationOutcomes', async () => {
    for (const path of reads()) expectOutcome(await get(path, null), 401, 'login', 'missing_api_key');
    expectOutcome(await get(`/Patient/${fhirId(w.patients.ca)}`, 'nk_sandbox_notakey0000000000000000000000'), 401, 'login');
    const ordersOnly = await restrictedKey(['orders.read']);
    expectOutcome(await get(`/Patient/${fhirId(w.patients.ca)}`, ordersOnly), 403, 'forbidden', 'missing_scope');
    expectOutcome(await get(`/QuestionnaireResponse/${fhirId(w.submissionId)}`, ordersOnly), 403, 'forbidden', 'missing_scope');
    expect((await get(`/MedicationRequest/${fhirId(w.orderId)}-1`, ordersOnly)).status).toBe(200);
    const patientsOnly = await restrictedKey(['patients.read']);
    expectOutcome(await get(`/MedicationRequest/${fhirId(w.orderId)}-1`, patientsOnly), 403, 'forbidden', 'missing_scope');
    expectOutcome(await get(`/Questionnaire/${fhirId(w.questionnaire.id)}`, patientsOnly), 403, 'forbidden');
  });

  it('unknown and malformed ids are 404; an unknown path 404; a wrong method 405 with Allow', async () => {
    expectOutcome(await get('/Patient/pat-00000000000000000000000000'), 404, 'not-found');
    expectOutcome(await get('/Patient/not-an-id'), 404, 'not-found');
    expectOutcome(await get(`/Patient/${w.patients.ca}`), 404, 'not-found');
    expectOutcome(await get('/MedicationRequest/ord-x-1'), 404, 'not-found');
    expectOutcome(await get('/Observation/obs-1'), 404, 'not-found', 'route_not_found');
    const wrong = await fhir(app, 'DELETE', `/Patient/${fhirId(w.patients.ca)}`, w.key);
    expectOutcome(wrong, 405, 'not-supported', 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('GET');
  });

  it('_format=json and JSON Accept headers are served; XML is a clean 406', async () => {
    const path = `/Patient/${fhirId(w.patients.ca)}`;
    for (const format of ['json', 'application/json', 'application/fhir+json']) expect((await get(`${path}?_format=${encodeURIComponent(format)}`)).status).toBe(200);
    for (const accept of ['application/json', '*/*', 'application/fhir+json;q=0.9, text/html']) expect((await get(path, w.key, { accept })).status).toBe(200);
    expectOutcome(await get(`${path}?_format=xml`), 406, 'not-supported', 'format_not_supported');
    expectOutcome(await get(path, w.key, { accept: 'application/fhir+xml' }), 406, 'not-supported');
    expectOutcome(await get('/metadata?_format=text/turtle', null), 406, 'not-supported');
  });
});

describe('the OpenAPI document', () => {
  it('lists every FHIR operation with its content type and OperationOutcome errors', async () => {
    const { FHIR_OPERATIONS } = await import('@/server/api/fhir-operations');
    const doc = (await app.request('GET', '/v1/openapi.json')).body;
    for (const op of FHIR_OPERATIONS) {
      const documented = doc.paths[op.path]?.[op.method.toLowerCase()];
      expect(documented, `${op.method} ${op.path}`).toBeDefined();
      expect(documented.responses[String(op.successStatus ?? 200)].content['application/fhir+json']).toBeDefined();
      expect(documented.responses['400'].content['application/fhir+json'].schema.$ref).toBe('#/components/schemas/OperationOutcome');
      expect(documented.security).toEqual(op.scope === null ? [] : [{ bearerAuth: [] }]);
    }
  });
});
