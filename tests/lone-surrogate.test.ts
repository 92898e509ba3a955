import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from './helpers/dispatch';
import { flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { type Clinic, countRows, createTenantWithKeys, expectEnvelope, startTestApp, type ApiResponse, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';

/*
 * Issue 49 item 3 over HTTP: a lone UTF-16 surrogate (U+D800–U+DFFF unpaired: JSON can carry it as "\ud800",
 * UTF-8 cannot encode it) in any string input is a 400 naming the field, as a NUL is, instead of being stored as
 * U+FFFD in a text column (or failing as a 500 in a jsonb one). "Any string input" is every string of a request
 * body, free JSON included (answers, adapter settings), at any depth. A valid pair (an emoji) is text like any other.
 */

const ORIGIN = 'https://www.surrogate.example';
const KEY = 'surrogates';
const MESSAGE_TAIL = 'must not contain a lone UTF-16 surrogate (\\ud800–\\udfff).';
// High and low halves, alone, at either end, in the middle, and the two in the wrong order.
const LONE = ['a\ud800b', '\udc00', 'Lee\udbff', '\udfffLee', '\udc00\ud800'];
const PATIENT = { firstName: 'Ann', lastName: 'Lee', dateOfBirth: '1980-01-01', sex: 'female' };

let app: TestApp;
let clinic: Clinic;
let intakeEmbed: string;
let flowEmbed: string;

beforeAll(async () => {
  app = await startTestApp({ EMBED_RATE_LIMIT: '100000' });
  clinic = await createTenantWithKeys(app, 'Surrogate clinic');
  const q = await approvedQuestionnaire(app, { tenantId: clinic.tenantId, livemode: true }, weightDocument(KEY));
  flowEmbed = (await publishedFlow(app, { tenantId: clinic.tenantId, livemode: true }, q, weightFlowDocument(KEY), { allowedOrigins: [ORIGIN] })).embedKey;
  const key = await app.request('POST', '/v1/embed-keys', { key: clinic.liveKey, body: { allowedOrigins: [ORIGIN] } });
  if (key.status !== 201) throw new Error(key.text);
  intakeEmbed = key.body.id;
});
afterAll(async () => app?.close());

const listPatients = async () => (await app.request('GET', '/v1/patients?limit=100', { key: clinic.liveKey })).body.map((p: { id: string }) => p.id);
const written = async () => ({
  patients: await countRows(app, 'patients'),
  submissions: await countRows(app, 'intake_submissions'),
  answers: await countRows(app, 'intake_answers'),
  events: await countRows(app, 'events'),
});
const expectRefused = (res: ApiResponse, param: string) => {
  expectEnvelope(res, 400, 'validation_error', 'invalid_request');
  expect(res.body.error.param).toBe(param);
  expect(res.body.error.message).toMatch(/must not contain a lone UTF-16 surrogate \(\\ud800–\\udfff\)\.$/);
};
const publicSubmit = (answers: Record<string, unknown>, patient: Record<string, unknown> = {}) =>
  app.request('POST', `/v1/public/intake/${intakeEmbed}/submissions`, {
    headers: { origin: ORIGIN },
    idempotencyKey: randomUUID(),
    body: { questionnaireKey: KEY, patient: { name: 'Ann Lee', email: `ann-${randomUUID()}@example.org`, state: 'CA', ...patient }, answers },
  });

describe('a string field', () => {
  it.each(LONE.map((v) => [JSON.stringify(v), v]))('lastName %s on POST /patients: 400 naming lastName, nothing written', async (_name, lastName) => {
    const listed = await listPatients();
    const before = await countRows(app, 'patients');
    const res = await app.request('POST', '/v1/patients', { key: clinic.liveKey, body: { ...PATIENT, lastName } });
    expectRefused(res, 'lastName');
    expect(res.body.error.message).toBe(`Last name ${MESSAGE_TAIL}`);
    expect(await countRows(app, 'patients')).toBe(before);
    expect(await listPatients()).toEqual(listed);
  });

  it('is named before any other problem of the body, as a NUL is', async () => {
    const res = await app.request('POST', '/v1/patients', { key: clinic.liveKey, body: { ...PATIENT, firstName: '', dateOfBirth: 'soon', lastName: 'Le\ud800e' } });
    expectRefused(res, 'lastName');
  });

  it('on PATCH, in a list, an e-mail, a URL and a password: 400 naming each', async () => {
    const made = await app.request('POST', '/v1/patients', { key: clinic.liveKey, body: PATIENT });
    expect(made.status).toBe(201);
    expectRefused(await app.request('PATCH', `/v1/patients/${made.body.id}`, { key: clinic.liveKey, body: { firstName: '\ud83d' } }), 'firstName');
    expectRefused(await app.request('PATCH', `/v1/patients/${made.body.id}`, { key: clinic.liveKey, body: { medications: ['ok', 'Metformin \udc00'] } }), 'medications.1');
    expectRefused(await app.request('PATCH', `/v1/patients/${made.body.id}`, { key: clinic.liveKey, body: { email: 'ann\ud800@example.org' } }), 'email');
    expect((await app.request('GET', `/v1/patients/${made.body.id}`, { key: clinic.liveKey })).body).toMatchObject({ firstName: 'Ann', medications: [], email: null });
    expectRefused(await app.request('POST', '/v1/developer/webhooks', { key: clinic.liveKey, body: { url: 'https://hooks.example.test/\ud800', events: ['order.submitted'] } }), 'url');
    // Kept exactly as sent, yet refused: UTF-8 would turn both halves into U+FFFD, so two passwords would hash alike.
    expectRefused(await app.request('POST', '/v1/auth/login', { body: { email: 'someone@surrogate.test', password: 'correct horse\udc00' } }), 'password');
  });

  it('a valid surrogate pair (an emoji) is accepted and read back exactly', async () => {
    const res = await app.request('POST', '/v1/patients', { key: clinic.liveKey, body: { ...PATIENT, lastName: 'Lee 😀', medications: ['🙂 daily'] } });
    expect(res.status, res.text).toBe(201);
    expect(await (await app.request('GET', `/v1/patients/${res.body.id}`, { key: clinic.liveKey })).body).toMatchObject({ lastName: 'Lee 😀', medications: ['🙂 daily'] });
  });
});

describe('free JSON (answers, settings)', () => {
  it.each([
    ['a text answer', { takesMeds: true, meds: 'Metformin\ud800' }, 'answers.meds'],
    ['a low half alone', { takesMeds: true, meds: '\udfff' }, 'answers.meds'],
    ['a string inside a list answer', { goal: ['lose', 'x\udc00'] }, 'answers.goal.1'],
    ['a key inside an object answer', { goal: { 'k\ud800': 'lose' } }, 'answers.goal'],
  ])('public intake, %s: 400 naming it, nothing written (it was a 500)', async (_name, over, param) => {
    const before = await written();
    const res = await publicSubmit(eligibleAnswers(over));
    expectRefused(res, param);
    expect(await written()).toEqual(before);
  });

  it('public intake, a NUL in an answer is refused the same way (it was a 500 too)', async () => {
    const before = await written();
    const res = await publicSubmit(eligibleAnswers({ takesMeds: true, meds: 'Met\u0000formin' }));
    expectEnvelope(res, 400, 'validation_error', 'invalid_request');
    expect(res.body.error).toMatchObject({ param: 'answers.meds', message: 'Answers meds must not contain the NUL character (\\u0000).' });
    expect(await written()).toEqual(before);
  });

  it('an answer key with a lone surrogate: 400 under answers, nothing written', async () => {
    const before = await written();
    const res = await publicSubmit({ ...eligibleAnswers(), 'x\ud800': 'y' });
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toMatch(/^answers\./);
    expect(await written()).toEqual(before);
  });

  it('a flow step answer and a contact field: 400 naming it, nothing held; an emoji answer is held and the run completes', async () => {
    const c = flowClient(app, flowEmbed, ORIGIN);
    const id = await c.started();
    const steps = weightRunAnswers();
    await c.answerAll(id, steps.slice(0, 3));
    const before = await written();
    expectRefused(await c.step(id, 'history', { pregnant: false, takesMeds: true, meds: 'Insulin \ud800', goal: 'lose' }), 'answers.meds');
    expectRefused(await c.step(id, 'contact', { ...Object.fromEntries(steps)['contact'], name: 'Ada \udc00Lovelace' }), 'answers.name');
    expect(await written()).toEqual(before);
    const [held] = await query<{ steps: Record<string, unknown> }>(app, sql`select steps from flow_session_answers where session_id = ${id}`);
    expect(Object.keys(held.steps)).not.toContain('history');
    expect(Object.keys(held.steps)).not.toContain('contact');

    await c.answerAll(id, weightRunAnswers({ history: { pregnant: false, takesMeds: true, meds: 'Insulin 💉', goal: 'lose' } }).slice(3));
    const res = await c.submit(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.verdict).toBe('eligible');
    const [answers] = await query<{ answers: Record<string, unknown> }>(app, sql`select answers from intake_answers where submission_id = ${res.body.submissionId}`);
    expect(answers.answers.meds).toBe('Insulin 💉');
  });

  it("a pharmacy's free-form settings: 400 naming the nested field, nothing written (it was a 500)", async () => {
    const before = await countRows(app, 'pharmacy_connections');
    const res = await app.request('POST', '/v1/pharmacies', { key: clinic.sandboxKey, body: { name: 'P', adapter: 'simulated', states: ['CA'], settings: { outOfStock: ['SKU-1', 'SKU\ud800'] } } });
    expectRefused(res, 'settings.outOfStock.1');
    expect(await countRows(app, 'pharmacy_connections')).toBe(before);
  });
});
