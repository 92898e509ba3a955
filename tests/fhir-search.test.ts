import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type ApiResponse, type TestApp } from './helpers/harness';
import { fhir, fhirId, fhirWorld, type FhirWorld } from './helpers/fhir-world';

/*
 * Issue 53 item 3 (DESIGN decision 42): searches answer a `searchset` Bundle with `total`, `_count` and a `next`
 * link that works; Patient by email, family and birthdate, identifier; MedicationRequest and QuestionnaireResponse
 * by patient; Patient/{id}/$everything. Tenant and mode isolation; every patient disclosed is logged; a parameter
 * not understood is a 400 naming it, never ignored.
 */

let app: TestApp;
let w: FhirWorld;
const search = (path: string, key = w.key) => fhir(app, 'GET', path, key);
const ids = (bundle: { entry?: { resource: { id: string } }[] }) => (bundle.entry ?? []).map((e) => e.resource.id);

/** Follows `next` links from the first page to the last; every page's entries, in order. */
async function allPages(path: string) {
  const pages: { total: number; ids: string[] }[] = [];
  let next: string | undefined = `/v1/fhir${path}`;
  while (next && pages.length < 20) {
    const res: ApiResponse = await app.request('GET', next, { key: w.key });
    expect(res.status, res.text).toBe(200);
    pages.push({ total: res.body.total, ids: ids(res.body) });
    const link: string | undefined = (res.body.link as { relation: string; url: string }[]).find((l) => l.relation === 'next')?.url;
    next = link ? new URL(link).pathname + new URL(link).search : undefined;
  }
  return pages;
}

const listed = async (patientId: string) =>
  ((await app.services.database.db.execute(sql`select count(*)::int as n from patient_access_log where patient_id = ${patientId} and action = 'list'`)) as unknown as { rows: { n: number }[] }).rows[0]!.n;

beforeAll(async () => {
  app = await startTestApp();
  w = await fhirWorld(app);
  for (let i = 0; i < 5; i++) {
    const res = await app.request('POST', '/v1/patients', {
      key: w.key,
      body: { firstName: `Pat${i}`, lastName: 'Pagewright', dateOfBirth: `199${i}-03-0${i + 1}`, sex: i % 2 ? 'male' : 'female', email: `pager${i}@fhir.test` },
    });
    if (res.status !== 201) throw new Error(res.text);
  }
}, 120_000);
afterAll(async () => app?.close());

describe('Patient search', () => {
  it('by email, ignoring case: a searchset Bundle with total, fullUrls and search mode; each patient served is logged', async () => {
    const before = await listed(w.patients.ca);
    const res = await search('/Patient?email=QUINN.CA@plantedmail.test');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(res.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 1 });
    expect(res.body.entry[0]).toMatchObject({ search: { mode: 'match' }, resource: { resourceType: 'Patient', id: fhirId(w.patients.ca) } });
    expect(res.body.entry[0].fullUrl).toMatch(new RegExp(`/v1/fhir/Patient/${fhirId(w.patients.ca)}$`));
    expect(await listed(w.patients.ca)).toBe(before + 1);
  });

  it('by family and birthdate: family starts with (any case), :exact as written; birthdate at any precision and with prefixes', async () => {
    expect((await search('/Patient?family=plantedname&birthdate=1971-07-17')).body.total).toBe(2);
    expect((await search('/Patient?family=PlantednameCA&birthdate=1971')).body.total).toBe(1);
    expect((await search('/Patient?family:exact=plantednameca')).body.total).toBe(0);
    expect((await search('/Patient?family:exact=PlantednameCA')).body.total).toBe(1);
    expect((await search('/Patient?family:contains=nameT')).body.total).toBe(1);
    expect((await search('/Patient?family=pagewright&birthdate=ge1992')).body.total).toBe(3);
    expect((await search('/Patient?family=pagewright&birthdate=ge1991&birthdate=lt1993')).body.total).toBe(2);
    expect((await search('/Patient?family=pagewright&birthdate=1990-03,1994-03-05')).body.total).toBe(2);
    expect((await search('/Patient?family=pagewright&birthdate=ne1990')).body.total).toBe(4);
    expect((await search('/Patient?family=planted&birthdate=1971-07-18')).body.total).toBe(0);
    // LIKE's own characters are text here, not wildcards.
    expect((await search('/Patient?family=%25')).body.total).toBe(0);
  });

  it('by identifier: the id as the REST API spells it, with or without the system', async () => {
    const own = await search(`/Patient?identifier=${w.patients.tx}`);
    expect(ids(own.body)).toEqual([fhirId(w.patients.tx)]);
    const system = (own.body.entry[0].resource.identifier as { system: string }[])[0]!.system;
    expect(ids((await search(`/Patient?identifier=${encodeURIComponent(`${system}|${w.patients.tx}`)}`)).body)).toEqual([fhirId(w.patients.tx)]);
    expect((await search(`/Patient?identifier=${encodeURIComponent(`http://other.example|${w.patients.tx}`)}`)).body.total).toBe(0);
    expect(ids((await search(`/Patient?_id=${fhirId(w.patients.tx)}`)).body)).toEqual([fhirId(w.patients.tx)]);
  });

  it('_count pages and the next link walks every match exactly once', async () => {
    const pages = await allPages('/Patient?family=pagewright&_count=2');
    expect(pages.map((p) => p.ids.length)).toEqual([2, 2, 1]);
    expect(pages.every((p) => p.total === 5)).toBe(true);
    expect(new Set(pages.flatMap((p) => p.ids)).size).toBe(5);
    const none = await search('/Patient?family=pagewright&_count=0');
    expect(none.body.total).toBe(5);
    expect(none.body.entry).toBeUndefined();
    expect((await search('/Patient?_count=1000')).body.link[0].url).toMatch(/_count=100\b/);
  });

  it('another clinic and the other mode find nothing of these patients', async () => {
    expect((await search('/Patient?family=pagewright', w.other.sandboxKey)).body.total).toBe(0);
    expect((await search('/Patient?family=pagewright', w.liveKey)).body.total).toBe(0);
    expect((await search(`/Patient?identifier=${w.patients.ca}`, w.other.sandboxKey)).body.total).toBe(0);
  });

  it('a parameter it does not understand, a bad value or a bad page is a 400 OperationOutcome naming it', async () => {
    const cases: [string, string][] = [
      ['/Patient?gender=female', 'gender'],
      ['/Patient?family:missing=true', 'family:missing'],
      ['/Patient?birthdate=1971-13-01', 'birthdate'],
      ['/Patient?birthdate=sa1971', 'birthdate'],
      ['/Patient?_count=-1', '_count'],
      ['/Patient?_count=ten', '_count'],
      ['/Patient?email=a%00b', 'email'],
      ['/MedicationRequest?status=active', 'status'],
    ];
    for (const [path, param] of cases) {
      const res = await search(path);
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.body.resourceType).toBe('OperationOutcome');
      expect(res.body.issue[0]).toMatchObject({ code: 'invalid', expression: [param] });
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    }
  });
});

describe('MedicationRequest and QuestionnaireResponse by patient', () => {
  it('MedicationRequest?patient=: every line of the patient’s orders, paged', async () => {
    const pages = await allPages(`/MedicationRequest?patient=Patient/${fhirId(w.patients.ca)}&_count=1`);
    expect(pages.length).toBe(2);
    expect(pages.flatMap((p) => p.ids)).toEqual([`${fhirId(w.orderId)}-1`, `${fhirId(w.orderId)}-2`]);
    expect((await search(`/MedicationRequest?patient=${fhirId(w.patients.ca)}`)).body.total).toBe(2);
    expect((await search(`/MedicationRequest?patient=${fhirId(w.patients.tx)}`)).body.total).toBe(0);
    expect((await search(`/MedicationRequest?patient=${fhirId(w.patients.ca)}`, w.other.sandboxKey)).body.total).toBe(0);
  });

  it('QuestionnaireResponse?patient=: the patient’s submissions', async () => {
    const res = await search(`/QuestionnaireResponse?patient=Patient/${fhirId(w.patients.ca)}`);
    expect(res.body.total).toBe(1);
    expect(res.body.entry[0].resource).toMatchObject({ resourceType: 'QuestionnaireResponse', id: fhirId(w.submissionId) });
    expect((await search(`/QuestionnaireResponse?patient=Patient/${fhirId(w.patients.ca)}`, w.liveKey)).body.total).toBe(0);
  });
});

describe('Patient/{id}/$everything', () => {
  it('the patient, the order lines, the responses, and the practitioners and questionnaires they refer to', async () => {
    const res = await search(`/Patient/${fhirId(w.patients.ca)}/$everything`);
    expect(res.status).toBe(200);
    const types = (res.body.entry as { resource: { resourceType: string; id: string } }[]).map((e) => `${e.resource.resourceType}/${e.resource.id}`);
    expect(types).toEqual([
      `Patient/${fhirId(w.patients.ca)}`,
      `MedicationRequest/${fhirId(w.orderId)}-1`,
      `MedicationRequest/${fhirId(w.orderId)}-2`,
      `QuestionnaireResponse/${fhirId(w.submissionId)}`,
      `Practitioner/${fhirId(w.provider.id)}`,
      `Questionnaire/${fhirId(w.questionnaire.id)}`,
    ]);
    expect(res.body.total).toBe(6);
    const pages = await allPages(`/Patient/${fhirId(w.patients.ca)}/$everything?_count=4`);
    expect(pages.flatMap((p) => p.ids).length).toBe(6);
  });

  it('a credential without orders.read gets no order lines, as the REST order read', async () => {
    const made = await app.request('POST', '/v1/developer/keys', { key: w.key, body: { name: 'patients only', mode: 'sandbox', keyType: 'restricted', scopes: ['patients.read'] } });
    const res = await search(`/Patient/${fhirId(w.patients.ca)}/$everything`, made.body.key);
    expect(res.status).toBe(200);
    expect((res.body.entry as { resource: { resourceType: string } }[]).map((e) => e.resource.resourceType)).toEqual(['Patient', 'QuestionnaireResponse', 'Questionnaire']);
  });

  it('another clinic’s patient is 404', async () => {
    expect((await search(`/Patient/${fhirId(w.patients.ca)}/$everything`, w.other.sandboxKey)).status).toBe(404);
  });
});
