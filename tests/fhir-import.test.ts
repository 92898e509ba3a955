import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '@/server/domain/intake/shared/engine';
import type { QuestionnaireDocument } from '@/server/domain/intake/questionnaire-schema';
import { countRows, createTenantWithKeys, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { fhir, fhirId } from './helpers/fhir-world';
import { richDocument, richFhirQuestionnaire } from './helpers/fhir-questionnaires';
import { publishAndApprove, weightDocument } from './helpers/intake-world';
import { providerSession } from './helpers/orders-world';

/*
 * Issue 53 item 5 (DESIGN decision 42): POST /v1/fhir/Questionnaire makes a FHIR Questionnaire a pending version
 * (origin `fhir`), inert until a provider approves it as any other; anything it cannot import is a 422
 * OperationOutcome naming each element by linkId, nothing saved. Round trip, as a property: export an approved
 * version, import it into another clinic, approve it there, and the engine gives the same verdict, hits and flags
 * on the same answers (≥ 200 generated answer sets).
 */

let app: TestApp;
let a: Clinic;
let b: Clinic;
let providerA: Awaited<ReturnType<typeof providerSession>>;
let providerB: Awaited<ReturnType<typeof providerSession>>;
const post = (body: unknown, key: string | null = a.sandboxKey, headers?: Record<string, string>) => fhir(app, 'POST', '/Questionnaire', key, { body, headers });
const stored = async (key: string, clinic: Clinic, version?: number) =>
  (await app.request('GET', `/v1/intake/questionnaires/${key}${version ? `?version=${version}` : ''}`, { key: clinic.sandboxKey })).body as { id: string; status: string; document: QuestionnaireDocument };

beforeAll(async () => {
  app = await startTestApp();
  a = await createTenantWithKeys(app, 'Exporter');
  b = await createTenantWithKeys(app, 'Importer');
  providerA = await providerSession(app, a.tenantId, ['CA']);
  providerB = await providerSession(app, b.tenantId, ['CA']);
}, 120_000);
afterAll(async () => app?.close());

describe('POST /v1/fhir/Questionnaire', () => {
  it('imports every supported element as a pending version, inert until a provider approves it', async () => {
    const res = await post(richFhirQuestionnaire());
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(res.headers.get('location')).toMatch(new RegExp(`/v1/fhir/Questionnaire/${res.body.id}$`));
    expect(res.body).toMatchObject({ resourceType: 'Questionnaire', status: 'draft', title: 'Sleep clinic intake', version: '1' });

    const drafts = (await app.request('GET', '/v1/intake/questionnaires/drafts', { key: a.sandboxKey })).body as { id: string; key: string; status: string; origin: string; document: QuestionnaireDocument }[];
    const draft = drafts.find((d) => fhirId(d.id) === res.body.id)!;
    expect(draft).toMatchObject({ key: 'sleep-intake', status: 'pending', origin: 'fhir' });
    const items = Object.fromEntries(draft.document.items.map((i) => [i.linkId, i]));
    expect(Object.keys(items)).toEqual(['dob', 'snores', 'loudness', 'symptoms', 'hours', 'neck', 'since', 'naps', 'why', 'neckBig', 'notes']);
    expect(items.dob).toMatchObject({ type: 'date', required: true, help: 'This takes about two minutes.' });
    expect(items.loudness).toMatchObject({ type: 'choice', enableWhen: { q: 'snores', op: 'eq', value: true }, options: [{ value: 'soft', label: 'Soft' }, { value: 'loud', label: 'Loud' }, { value: 'unbearable', label: 'unbearable' }] });
    expect(items.symptoms).toMatchObject({ type: 'multi_choice', options: expect.arrayContaining([{ value: 'none', label: 'None of these', exclusive: true }]) });
    expect(items.hours).toMatchObject({ type: 'integer', min: 0, max: 24 });
    expect(items.neck).toMatchObject({ type: 'decimal', unit: 'cm', help: 'Measure just below the Adam’s apple.' });
    // The group's condition reaches each of its items; its text is the help of the first.
    const group = { any: [{ q: 'hours', op: 'lt', value: 6 }, { q: 'hours', op: 'gt', value: 10 }] };
    expect(items.since).toMatchObject({ help: 'A few more details', enableWhen: { all: [group, { q: 'dob', op: 'exists', value: true }] } });
    expect(items.naps!.enableWhen).toEqual({ all: [group, { all: [{ q: 'hours', op: 'gte', value: 0 }, { q: 'hours', op: 'lte', value: 24 }] }] });
    expect(items.why!.enableWhen).toEqual({ all: [group, { q: 'loudness', op: 'neq', value: 'soft' }] });
    expect(items.neckBig!.enableWhen).toEqual({ q: 'neck', op: 'gte', value: 40.5 });

    // Inert: no submission can use it until a provider approves it.
    const early = await app.request('POST', '/v1/intake/submissions', { key: a.sandboxKey, body: { questionnaireKey: 'sleep-intake', patientId: 'pat_00000000000000000000000000', answers: {} } });
    expect(early.status).toBe(404);
    const approved = await app.request('POST', `/v1/intake/questionnaires/${draft.id}/approve`, { key: providerA.token, body: {} });
    expect(approved.status, approved.text).toBe(200);
    expect((await fhir(app, 'GET', `/Questionnaire/${res.body.id}`, a.sandboxKey)).body.status).toBe('active');
  });

  it('the same content again makes no new version: 200 with the existing one', async () => {
    const again = await post(richFhirQuestionnaire());
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ version: '1', status: 'active' });
  });

  it('anything it cannot import is a 422 OperationOutcome naming each element by linkId; nothing is saved', async () => {
    const before = await countRows(app, 'questionnaires');
    const res = await post(
      richFhirQuestionnaire({
        item: [
          { linkId: 'photo', type: 'attachment', text: 'A photo' },
          { linkId: 'other', type: 'open-choice', text: 'Other', answerOption: [{ valueString: 'x' }] },
          { linkId: 'weight', type: 'decimal', text: 'Weight', initial: [{ valueDecimal: 70 }] },
          { linkId: 'when', type: 'dateTime', text: 'When' },
          { linkId: 'coded', type: 'choice', text: 'Coded', answerValueSet: 'http://example.org/vs' },
          { linkId: 'ext', type: 'string', text: 'Ext', extension: [{ url: 'http://example.org/unknown', valueString: 'x' }] },
          { linkId: 'qty', type: 'integer', text: 'Qty', enableWhen: [{ question: 'weight', operator: '=', answerQuantity: { value: 1 } }] },
          { linkId: 'sect', type: 'group', text: 'Section', required: true, item: [{ linkId: 'inner', type: 'boolean', text: 'Inner' }] },
        ],
      }),
    );
    expect(res.status, res.text).toBe(422);
    expect(res.body.resourceType).toBe('OperationOutcome');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const named = (res.body.issue as { expression?: string[]; code: string }[]).map((i) => i.expression?.[0]);
    expect(new Set(named)).toEqual(new Set(['photo', 'other', 'weight', 'when', 'coded', 'ext', 'qty', 'sect']));
    expect(res.body.issue.every((i: { code: string }) => i.code === 'processing')).toBe(true);
    expect(await countRows(app, 'questionnaires')).toBe(before);
  });

  it('what the questionnaire validator refuses is a 422 naming the item too', async () => {
    const before = await countRows(app, 'questionnaires');
    const res = await post({ resourceType: 'Questionnaire', status: 'draft', name: 'Broken', item: [{ linkId: 'a', type: 'boolean', text: 'A', enableWhen: [{ question: 'later', operator: 'exists', answerBoolean: true }] }, { linkId: 'later', type: 'boolean', text: 'Later' }] });
    expect(res.status, res.text).toBe(422);
    expect(res.body.issue[0].expression).toEqual(['a']);
    expect(await countRows(app, 'questionnaires')).toBe(before);
  });

  it('a body that is no Questionnaire is a 400, a body that is no JSON a 415, a key without the scope 403', async () => {
    const not = await post({ resourceType: 'Patient' });
    expect(not.status).toBe(400);
    expect(not.body.issue[0].expression).toEqual(['resourceType']);
    const text = await app.request('POST', '/v1/fhir/Questionnaire', { key: a.sandboxKey, rawBody: '<Questionnaire/>', headers: { 'content-type': 'application/fhir+xml' } });
    expect(text.status).toBe(415);
    expect(text.body.resourceType).toBe('OperationOutcome');
    const made = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'orders', mode: 'sandbox', keyType: 'restricted', scopes: ['orders.read'] } });
    expect((await post(richFhirQuestionnaire(), made.body.key)).status).toBe(403);
    expect((await post(richFhirQuestionnaire(), null)).status).toBe(401);
  });
});

describe('round trip: export, import elsewhere, approve, same decisions', () => {
  const ASOF = '2026-11-25';
  const answer = (type: string, linkId: string): fc.Arbitrary<unknown> => {
    const junk = fc.constantFrom(null, '', 'nonsense', -1, true, [] as unknown[]);
    const byType: Record<string, fc.Arbitrary<unknown>> = {
      date: fc.constantFrom('1950-01-01', '2000-06-15', '2008-11-26', '2008-11-25', '2010-01-01'),
      choice: fc.constantFrom('female', 'male', 'intersex'),
      decimal: linkId === 'a1c' ? fc.constantFrom(5, 8.9, 9, 12) : linkId === 'height' ? fc.constantFrom(150, 165.5, 180, 230) : fc.constantFrom(45, 72.9, 81, 95, 130, 300),
      boolean: fc.boolean(),
      multi_choice: fc.subarray(['diabetes', 'thyroid', 'none']),
      integer: fc.integer({ min: 0, max: 30 }),
      text: fc.constantFrom('a few', ' '),
      string: fc.constant('ok'),
    };
    return fc.oneof({ weight: 8, arbitrary: byType[type]! }, { weight: 1, arbitrary: junk }, { weight: 1, arbitrary: fc.constant(undefined) });
  };

  it.each([
    ['the whole condition language', (key: string) => richDocument(key)],
    ['the weight questionnaire', (key: string) => weightDocument(key)],
  ])('%s: ≥ 200 answer sets, the same verdict, hits and flags', async (_name, make) => {
    const key = `rt-${Math.random().toString(36).slice(2, 8)}`;
    const original = await publishAndApprove(app, a.sandboxKey, providerA.token, make(key));
    const exported = await fhir(app, 'GET', `/Questionnaire/${fhirId(original.id)}`, a.sandboxKey);
    expect(exported.status).toBe(200);
    const imported = await post(exported.body, b.sandboxKey);
    expect(imported.status, imported.text).toBe(201);
    const pending = ((await app.request('GET', '/v1/intake/questionnaires/drafts', { key: b.sandboxKey })).body as { id: string }[]).find((d) => fhirId(d.id) === imported.body.id)!;
    expect((await app.request('POST', `/v1/intake/questionnaires/${pending.id}/approve`, { key: providerB.token, body: {} })).status).toBe(200);
    const before = (await stored(key, a)).document;
    const after = (await stored(key, b)).document;
    expect(after.items.map((i) => [i.linkId, i.type, i.required])).toEqual(before.items.map((i) => [i.linkId, i.type, i.required]));

    const answers = fc.record(Object.fromEntries(before.items.map((i) => [i.linkId, answer(i.type, i.linkId)])), { requiredKeys: [] });
    let runs = 0;
    fc.assert(
      fc.property(answers, (set) => {
        runs++;
        const clean = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
        const x = evaluate(before, clean, { asOf: ASOF });
        const y = evaluate(after, clean, { asOf: ASOF });
        expect({ verdict: y.verdict, hits: y.hits, flags: y.flags, missing: y.missing }).toEqual({ verdict: x.verdict, hits: x.hits, flags: x.flags, missing: x.missing });
      }),
      { numRuns: 300 },
    );
    expect(runs).toBeGreaterThanOrEqual(200);
  });
});
