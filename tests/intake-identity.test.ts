import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import type { QuestionnaireDocument } from '@/server/domain/intake/questionnaire-schema';
import { US_STATE_OPTIONS } from '@/server/lib/us-states';
import { query } from './helpers/dispatch';
import { flowClient } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, startTestApp, type ApiResponse, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';
import { ordersWorld } from './helpers/orders-world';
import { trpcFailure } from './helpers/trpc';

/*
 * Issue 33, items 1, 2 and 8 over HTTP (DESIGN decisions 31 and 32): one person per submission. Identity facts
 * declared by the questionnaire are reconciled with the contact step, the submit body and public intake's
 * `patient` (a difference is a 400 naming the field, nothing written); a live e-mail match whose date of birth,
 * sex at birth or last name differs never changes the record and blocks approval until a provider or admin
 * resolves it; the contact step and public intake collect an address and phone, and a live patient always
 * carries its state, so a provider approves without anyone typing an address in.
 */

const ORIGIN = 'https://www.identity.example';
const KEY = 'facts';
// Planted values: none may appear in an event, a list, an error body or a DTO.
const DOB = '1957-09-23';
const OTHER_DOB = '1962-11-04';
const LAST = 'Plantedsurname';

type World = Awaited<ReturnType<typeof ordersWorld>>;
let app: TestApp;
let w: World;
let flowEmbed: string;
let intakeEmbed: string;
let sandboxFlowEmbed: string;
let admin: { token: string };

/** The weight questionnaire with its identity facts declared: date of birth, state (a choice over the list), sex. */
function factDocument(key: string, protocolId?: string): QuestionnaireDocument {
  const doc = weightDocument(key, protocolId);
  const [dob, ...rest] = doc.items;
  doc.items = [
    { ...dob, fact: 'dateOfBirth' },
    { linkId: 'state', text: 'Which US state do you live in?', type: 'choice', required: true, options: US_STATE_OPTIONS, fact: 'state' },
    { linkId: 'sex', text: 'Sex assigned at birth', type: 'choice', required: true, options: [{ value: 'female', label: 'Female' }, { value: 'male', label: 'Male' }], fact: 'sexAtBirth' },
    ...rest,
  ];
  return doc;
}

function factFlow() {
  const doc = weightFlowDocument(KEY);
  doc.steps = doc.steps.map((s) => (s.kind === 'medical' && s.id === 'body' ? { ...s, linkIds: ['dob', 'state', 'sex', 'height', 'weight'] } : s));
  return doc;
}

const ADDRESS = { addressLine1: '1 Market St', addressLine2: 'Suite 5', city: 'San Francisco', postalCode: '94105-1234', phone: '(415) 555-0134' };
const person = (email: string, over: Record<string, unknown> = {}) => ({ name: `Ada ${LAST}`, email, state: 'CA', dateOfBirth: DOB, ...ADDRESS, ...over });
const runSteps = (contact: Record<string, unknown>, body: Record<string, unknown> = {}): [string, Record<string, unknown>][] => [
  ['welcome', {}],
  ['goals', { motivation: 'health' }],
  ['body', { dob: DOB, state: 'CA', sex: 'female', height: 170, weight: 84, ...body }],
  ['history', { pregnant: false, takesMeds: false, goal: 'lose' }],
  ['consent', { accepted: true, version: '2026-01' }],
  ['contact', contact],
];

const written = async () => ({
  submissions: await countRows(app, 'intake_submissions'),
  answers: await countRows(app, 'intake_answers'),
  patients: await countRows(app, 'patients'),
  events: await countRows(app, 'events'),
  accessLog: await countRows(app, 'patient_access_log'),
});

const trpc = (token: string, mode?: 'live') =>
  createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${token}`, ...(mode ? { 'x-mode': mode } : {}) } })] });
const live = { 'x-mode': 'live' };
const review = (id: string, decision: 'approve' | 'reject', token = w.provider.token) =>
  app.request('POST', `/v1/intake/submissions/${id}/review`, { key: token, headers: live, body: { decision, ...(decision === 'reject' && { note: 'x' }) } });
const resolve = (id: string, patient: string, token = w.provider.token, headers: Record<string, string> = live) =>
  app.request('POST', `/v1/intake/submissions/${id}/resolve-identity`, { key: token, headers, body: { patient } });
const publicSubmit = (embed: string, patient: Record<string, unknown>, answers = eligibleAnswers({ dob: DOB, state: 'CA', sex: 'female' })) =>
  app.request('POST', `/v1/public/intake/${embed}/submissions`, { headers: { origin: ORIGIN }, idempotencyKey: randomUUID(), body: { questionnaireKey: KEY, patient, answers } });

/** A live flow run to the end; the submit answer. */
async function flowRun(contact: Record<string, unknown>, body: Record<string, unknown> = {}, embed = flowEmbed): Promise<ApiResponse> {
  const c = flowClient(app, embed, ORIGIN);
  const id = await c.started();
  await c.answerAll(id, runSteps(contact, body));
  const res = await c.submit(id, { name: String(contact.name), email: String(contact.email) });
  expect(res.status, res.text).toBe(200);
  return res;
}

const submissionOf = async (id: string) => (await app.request('GET', `/v1/intake/submissions/${id}`, { key: w.liveKey })).body;
const patientOf = async (id: string) => (await app.request('GET', `/v1/patients/${id}`, { key: w.liveKey })).body;

beforeAll(async () => {
  app = await startTestApp({ ORDER_SYNC_INTERVAL_MS: '60000', PUBLIC_URL: 'https://rail.example.test', EMBED_RATE_LIMIT: '100000' });
  w = await ordersWorld(app, 'Identity clinic', { mode: 'live' });
  const protocol = await app.request('POST', '/v1/protocols', { key: w.liveKey, body: { name: 'GLP-1 start', items: [{ productId: w.products.glp, quantity: 1, sig: 'Inject 0.25 mg weekly' }] } });
  if (protocol.status !== 201) throw new Error(protocol.text);
  const q = await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: true }, factDocument(KEY, protocol.body.id));
  flowEmbed = (await publishedFlow(app, { tenantId: w.tenantId, livemode: true }, q, factFlow(), { allowedOrigins: [ORIGIN] })).embedKey;
  const sq = await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: false }, factDocument(KEY));
  sandboxFlowEmbed = (await publishedFlow(app, { tenantId: w.tenantId, livemode: false }, sq, factFlow(), { allowedOrigins: [ORIGIN] })).embedKey;
  const key = await app.request('POST', '/v1/embed-keys', { key: w.liveKey, body: { allowedOrigins: [ORIGIN] } });
  if (key.status !== 201) throw new Error(key.text);
  intakeEmbed = key.body.id;
  admin = await createUserAndLogin(app, w.tenantId, { email: `admin-${randomUUID()}@clinic.test`, role: 'admin' });
});
afterAll(async () => app?.close());

describe('identity facts in the questionnaire (item 1)', () => {
  it.each([
    ['a free-text state fact', { linkId: 'home', text: 'Which US state?', type: 'string', required: true, fact: 'state' }, /"home" declares fact: state.*string item is not accepted/],
    ['a state fact over a short list', { linkId: 'home', text: 'Which state?', type: 'choice', required: true, options: [{ value: 'CA', label: 'California' }, { value: 'ZZ', label: 'Nowhere' }], fact: 'state' }, /"home" declares fact: state.*options differ/],
    ['a date-of-birth fact on text', { linkId: 'home', text: 'Born?', type: 'string', required: true, fact: 'dateOfBirth' }, /"home" declares fact: dateOfBirth, so it must be a date item/],
  ])('%s is refused at publish naming the item; nothing written', async (_name, item, message) => {
    const before = await countRows(app, 'questionnaires');
    const doc = { ...weightDocument(`bad-${randomUUID().slice(0, 8)}`), items: [...weightDocument('x').items, item] };
    const res = await app.request('POST', '/v1/intake/questionnaires', { key: w.liveKey, body: doc });
    expectEnvelope(res, 400, 'validation_error', 'invalid_questionnaire');
    expect(res.body.error.param).toBe(`items.${doc.items.length - 1}.fact`);
    expect(res.body.error.message).toMatch(message);
    expect(await countRows(app, 'questionnaires')).toBe(before);
  });

  it('a state fact over the one list, a date and a sex fact are accepted', async () => {
    const res = await app.request('POST', '/v1/intake/questionnaires', { key: w.liveKey, body: factDocument(`ok-${randomUUID().slice(0, 8)}`) });
    expect(res.status, res.text).toBe(201);
  });
});

describe('reconciling facts (item 1)', () => {
  it.each([
    ['date of birth', { dateOfBirth: OTHER_DOB }, 'answers.dateOfBirth'],
    ['state', { state: 'TX' }, 'answers.state'],
  ])('a contact step whose %s differs from the answer → 400 naming it, patient-safe, nothing held', async (_name, over, param) => {
    const c = flowClient(app, flowEmbed, ORIGIN);
    const id = await c.started();
    await c.answerAll(id, runSteps(person('x@example.org')).slice(0, 5));
    const before = await written();
    const res = await c.step(id, 'contact', person('x@example.org', over));
    expectEnvelope(res, 400, 'validation_error', 'fact_mismatch');
    expect(res.body.error.param).toBe(param);
    expect(res.body.error.message).toMatch(/differs from the .* given in your answers/);
    expect(res.text).not.toContain(OTHER_DOB);
    expect(await written()).toEqual(before);
    const [held] = await query<{ steps: Record<string, unknown> }>(app, sql`select steps from flow_session_answers where session_id = ${id}`);
    expect(Object.keys(held.steps)).not.toContain('contact');
  });

  it('a contact step without date of birth and state takes them from the answers; the patient and the engine read the same facts', async () => {
    const email = `prefill-${randomUUID()}@example.org`;
    const { dateOfBirth: _d, state: _s, ...rest } = person(email);
    const res = await flowRun(rest, { dob: '2012-01-01' });
    // age() read the answered date of birth (a 14-year-old): the adults-only rule disqualified the run.
    expect(res.body.verdict).toBe('disqualified');
    const s = await submissionOf(res.body.submissionId);
    const p = await patientOf(s.patientId);
    expect(p).toMatchObject({ dateOfBirth: '2012-01-01', state: 'CA', sex: 'female' });
  });

  it.each([
    ['name', { name: `Someone Else` }, 'patient.name'],
    ['email', { email: 'someone-else@example.org' }, 'patient.email'],
  ])('a submit body whose %s differs from the contact step → 400, nothing written, the session still open', async (_n, over, param) => {
    const c = flowClient(app, flowEmbed, ORIGIN);
    const id = await c.started();
    const contact = person(`submit-${randomUUID()}@example.org`);
    await c.answerAll(id, runSteps(contact));
    const before = await written();
    const res = await c.submit(id, { name: contact.name, email: contact.email, ...over });
    expectEnvelope(res, 400, 'validation_error', 'contact_mismatch');
    expect(res.body.error.param).toBe(param);
    expect(await written()).toEqual(before);
    expect((await c.submit(id, { name: contact.name.toUpperCase(), email: contact.email.toUpperCase() })).body.verdict).toBe('eligible');
  });

  it.each([
    ['date of birth', { dateOfBirth: OTHER_DOB }, 'patient.dateOfBirth', 'fact_mismatch'],
    ['state', { state: 'TX' }, 'patient.state', 'fact_mismatch'],
    ['address state', { address: { line1: '1 Main St', city: 'Austin', postalCode: '73301', state: 'TX' } }, 'patient.address.state', 'fact_mismatch'],
    ['ZIP code', { address: { line1: '1 Main St', city: 'Austin', postalCode: '7330' } }, 'patient.address.postalCode', 'invalid_request'],
    ['phone', { phone: '555-01' }, 'patient.phone', 'invalid_request'],
  ])('public intake: a patient whose %s is wrong → 400 naming it, nothing written', async (_n, over, param, code) => {
    const before = await written();
    const res = await publicSubmit(intakeEmbed, { name: `Ada ${LAST}`, email: `pi-${randomUUID()}@example.org`, state: 'CA', dateOfBirth: DOB, ...over });
    expectEnvelope(res, 400, 'validation_error', code);
    expect(res.body.error.param).toBe(param);
    expect(res.text).not.toContain(OTHER_DOB);
    expect(await written()).toEqual(before);
  });
});

describe('the address (item 8)', () => {
  it.each([
    ['a bad ZIP', { postalCode: '941' }, 'answers.postalCode'],
    ['a street without a city', { city: '' }, 'answers.city'],
    ['a bad phone', { phone: '12' }, 'answers.phone'],
  ])('a contact step with %s → 400 naming it, nothing held', async (_n, over, param) => {
    const c = flowClient(app, flowEmbed, ORIGIN);
    const id = await c.started();
    await c.answerAll(id, runSteps(person('z@example.org')).slice(0, 5));
    const before = await written();
    const res = await c.step(id, 'contact', person('z@example.org', over));
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe(param);
    expect(await written()).toEqual(before);
  });

  it('a live flow patient carries the address, phone and state; the provider licensed there approves with no one adding them', async () => {
    const res = await flowRun(person(`address-${randomUUID()}@example.org`));
    expect(res.body.verdict).toBe('eligible');
    const s = await submissionOf(res.body.submissionId);
    expect(await patientOf(s.patientId)).toMatchObject({
      phone: '+14155550134',
      state: 'CA',
      address: { line1: '1 Market St', line2: 'Suite 5', city: 'San Francisco', state: 'CA', postalCode: '94105-1234', country: 'US' },
    });
    const approved = await review(s.id, 'approve');
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', identity: null });
    expect(approved.body.orderId).toMatch(/^ord_/);
  });

  it('public intake without an address keeps the state on the patient (no patient_state_unknown)', async () => {
    const res = await publicSubmit(intakeEmbed, { name: `Bo ${LAST}`, email: `bare-${randomUUID()}@example.org`, state: 'CA' });
    expect(res.status, res.text).toBe(201);
    const s = await submissionOf(res.body.submissionId);
    expect(await patientOf(s.patientId)).toMatchObject({ address: null, state: 'CA', dateOfBirth: DOB });
    expect((await review(s.id, 'reject')).status).toBe(200);
  });
});

describe('patient matching (item 2)', () => {
  /** An existing live patient (from a first run) and a second run with the same e-mail and another date of birth. */
  async function mismatched(over: Record<string, unknown> = { dateOfBirth: OTHER_DOB }, body: Record<string, unknown> = { dob: OTHER_DOB }) {
    const email = `match-${randomUUID()}@example.org`;
    const first = await flowRun(person(email));
    const existingId = (await submissionOf(first.body.submissionId)).patientId as string;
    const existing = await patientOf(existingId);
    const second = await flowRun(person(email.toUpperCase(), over), body);
    return { existingId, existing, submissionId: second.body.submissionId as string };
  }

  it('a live e-mail match with another date of birth: flagged, the record untouched, approve 409 until resolved; resolved as new', async () => {
    const before = await countRows(app, 'patients');
    const { existingId, existing, submissionId } = await mismatched();
    expect(await countRows(app, 'patients')).toBe(before + 1);
    const s = await submissionOf(submissionId);
    expect(s.patientId).toBe(existingId);
    expect(s.identity).toEqual({ status: 'mismatch', fields: ['dateOfBirth'], resolution: null, resolvedBy: null, resolvedAt: null });
    expect(await patientOf(existingId)).toEqual({ ...existing, updatedAt: existing.updatedAt });

    const blocked = await review(submissionId, 'approve');
    expectEnvelope(blocked, 409, 'conflict', 'identity_unresolved');
    expect(blocked.text).not.toContain(OTHER_DOB);

    // Nobody but a provider or admin resolves; another mode or clinic sees nothing.
    expectEnvelope(await resolve(submissionId, 'new', w.liveKey, {}), 403, 'permission_error');
    const dev = await createUserAndLogin(app, w.tenantId, { email: `dev-${randomUUID()}@clinic.test`, role: 'developer' });
    expectEnvelope(await resolve(submissionId, 'new', dev.token), 403, 'permission_error');
    expectEnvelope(await resolve(submissionId, 'new', w.provider.token, {}), 404, 'not_found');
    const other = await createTenantWithKeys(app, 'Other identity clinic');
    const stranger = await createUserAndLogin(app, other.tenantId, { email: `adm-${randomUUID()}@clinic.test`, role: 'admin' });
    expectEnvelope(await resolve(submissionId, 'new', stranger.token), 404, 'not_found');
    expectEnvelope(await resolve(submissionId, 'somebody'), 400, 'validation_error');

    const resolved = await resolve(submissionId, 'new');
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.identity).toMatchObject({ status: 'resolved', fields: ['dateOfBirth'], resolution: 'new', resolvedBy: w.provider.id });
    expect(resolved.body.patientId).not.toBe(existingId);
    expect(await patientOf(resolved.body.patientId)).toMatchObject({ dateOfBirth: OTHER_DOB, lastName: LAST, state: 'CA', address: { line1: '1 Market St' } });
    expect(await patientOf(existingId)).toEqual(existing);
    const logged = await query<{ patient_id: string }>(app, sql`select patient_id from patient_access_log where action = 'identity_resolve'`);
    expect(logged.map((l) => l.patient_id)).toEqual(expect.arrayContaining([existingId, resolved.body.patientId]));

    expectEnvelope(await resolve(submissionId, 'existing'), 409, 'conflict', 'identity_already_resolved');
    const approved = await review(submissionId, 'approve');
    expect(approved.status, approved.text).toBe(200);
  });

  it('resolved as existing by an admin: the submission stays on the matched patient, unchanged, and can be approved', async () => {
    const { existingId, existing, submissionId } = await mismatched({ name: 'Ada Otherlast' }, {});
    expect((await submissionOf(submissionId)).identity.fields).toEqual(['lastName']);
    const resolved = await resolve(submissionId, 'existing', admin.token);
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body).toMatchObject({ patientId: existingId, identity: { status: 'resolved', resolution: 'existing' } });
    expect(await patientOf(existingId)).toEqual(existing);
    expect((await review(submissionId, 'approve')).status).toBe(200);
  });

  it('public intake: a match with another sex at birth is flagged too; a submission never flagged cannot be resolved', async () => {
    const email = `pi-match-${randomUUID()}@example.org`;
    const first = await publicSubmit(intakeEmbed, { name: `Cy ${LAST}`, email, state: 'CA' });
    expect(first.status, first.text).toBe(201);
    const second = await publicSubmit(intakeEmbed, { name: `Cy ${LAST}`, email, state: 'CA' }, eligibleAnswers({ dob: DOB, state: 'CA', sex: 'male' }));
    expect(second.status, second.text).toBe(201);
    expect((await submissionOf(second.body.submissionId)).identity).toMatchObject({ status: 'mismatch', fields: ['sexAtBirth'] });
    expectEnvelope(await resolve(first.body.submissionId, 'existing'), 409, 'conflict', 'identity_not_flagged');
  });

  it('a hosted link answered with another date of birth than the linked patient’s: flagged, the record untouched', async () => {
    const made = await app.request('POST', '/v1/patients', { key: w.liveKey, body: { firstName: 'Di', lastName: LAST, dateOfBirth: DOB, sex: 'female', email: `link-${randomUUID()}@example.org` } });
    expect(made.status, made.text).toBe(201);
    const link = await app.request('POST', '/v1/intake/hosted-links', { key: w.liveKey, body: { patientId: made.body.id, questionnaireKey: KEY } });
    expect(link.status, link.text).toBe(201);
    const token = String(link.body.url).split('/i/')[1];
    const sent = await app.request('POST', `/v1/public/intake/hosted/${token}/submissions`, { body: { answers: eligibleAnswers({ dob: OTHER_DOB, state: 'CA', sex: 'female' }) }, idempotencyKey: randomUUID() });
    expect(sent.status, sent.text).toBe(201);
    const [row] = await query<{ id: string }>(app, sql`select id from intake_submissions where patient_id = ${made.body.id}`);
    const s = await submissionOf(row.id);
    expect(s.identity).toMatchObject({ status: 'mismatch', fields: ['dateOfBirth'] });
    expect(await patientOf(made.body.id)).toMatchObject({ dateOfBirth: DOB, updatedAt: made.body.updatedAt });
    expectEnvelope(await review(row.id, 'approve'), 409, 'conflict', 'identity_unresolved');
    expect((await resolve(row.id, 'existing')).body.identity).toMatchObject({ status: 'resolved', resolution: 'existing' });
  });

  it('a fact one side did not record is no difference: a one-word name never flags the last name (issue 50 item 5)', async () => {
    const email = `one-word-${randomUUID()}@example.org`;
    const first = await flowRun(person(email));
    const existingId = (await submissionOf(first.body.submissionId)).patientId as string;
    // The same person giving only a first name: attached to the record, nothing flagged.
    const same = await flowRun(person(email, { name: 'Ada' }));
    expect(await submissionOf(same.body.submissionId)).toMatchObject({ patientId: existingId, identity: null });
    // Another date of birth and a first name only: flagged for the date of birth alone.
    const other = await flowRun(person(email, { name: 'Ada', dateOfBirth: OTHER_DOB }), { dob: OTHER_DOB });
    expect((await submissionOf(other.body.submissionId)).identity).toMatchObject({ status: 'mismatch', fields: ['dateOfBirth'] });
    const view = await trpc(w.provider.token, 'live').intake.submissionForReview.query({ id: other.body.submissionId });
    expect(view.identity).toMatchObject({ existing: { name: `Ada ${LAST}` }, submitted: { name: 'Ada', dateOfBirth: OTHER_DOB } });
  });

  it('sandbox keeps synthetic patients: the same e-mail twice is never matched or flagged', async () => {
    const email = `sandbox-${randomUUID()}@example.org`;
    const runs = [];
    for (const dob of [DOB, OTHER_DOB]) runs.push(await flowRun(person(email, { dateOfBirth: dob }), { dob }, sandboxFlowEmbed));
    const subs = await Promise.all(runs.map(async (r) => (await app.request('GET', `/v1/intake/submissions/${r.body.submissionId}`, { key: w.sandboxKey })).body));
    expect(subs.map((s) => s.identity)).toEqual([null, null]);
    expect(subs[0].patientId).not.toBe(subs[1].patientId);
  });

  it('the console shows both people side by side (a logged read); lists and events carry field names only', async () => {
    const { existingId, submissionId } = await mismatched();
    const before = await countRows(app, 'patient_access_log');
    const view = await trpc(w.provider.token, 'live').intake.submissionForReview.query({ id: submissionId });
    expect(view.identity).toMatchObject({
      status: 'mismatch',
      fields: ['dateOfBirth'],
      existing: { patientId: existingId, name: `Ada ${LAST}`, dateOfBirth: DOB, sexAtBirth: 'female', state: 'CA' },
      submitted: { name: `Ada ${LAST}`, dateOfBirth: OTHER_DOB, sexAtBirth: 'female', state: 'CA' },
    });
    expect(view.patientState).toBe('CA');
    // Issue 33 item 3: the person shown beside the two records is the same read: one entry for the one patient.
    expect(view.person).toMatchObject({ lastName: LAST, state: 'CA' });
    expect(await countRows(app, 'patient_access_log')).toBe(before + 1);
    expect((await trpcFailure(trpc(w.provider.token).intake.submissionForReview.query({ id: submissionId }))).data.httpStatus).toBe(404);

    const list = await app.request('GET', '/v1/intake/submissions?status=all&sandbox=false&limit=100', { key: w.liveKey });
    expect(list.status, list.text).toBe(200);
    expect(list.body.find((s: { id: string }) => s.id === submissionId).identity.fields).toEqual(['dateOfBirth']);
    const events = await app.request('GET', '/v1/developer/events?limit=100', { key: w.liveKey });
    for (const text of [list.text, events.text]) {
      for (const planted of [DOB, OTHER_DOB, LAST, 'Market St', '4155550134']) expect(text).not.toContain(planted);
    }
  });
});
