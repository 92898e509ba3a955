import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, startTestApp, VALID_NPI, type ApiResponse, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, publishAndApprove, weightDocument } from './helpers/intake-world';
import { ordersWorld, providerSession } from './helpers/orders-world';

/*
 * Authenticated intake submissions over HTTP (SPEC "Intake and public intake paths", DESIGN decision 21):
 * in-app submit through the engine and certificate, the review queue, the single read with its logged
 * answers, and the provider review that turns an eligible submission into an order submitted at the
 * simulated pharmacy. Bad input writes nothing; other tenants' and the other mode's ids are 404.
 */

type World = Awaited<ReturnType<typeof ordersWorld>>;

let app: TestApp;
let w: World;
let other: Awaited<ReturnType<typeof createTenantWithKeys>>;
let livePatient: string;
let otherPatient: string;
let questionnaireHash: string;

const KEY = 'weight';
const NO_PROTOCOL = 'weight-bare';

const submit = (body: unknown, key = w.key, idempotencyKey?: string) => app.request('POST', '/v1/intake/submissions', { key, body, idempotencyKey });
const list = (query: string, key = w.key) => app.request('GET', `/v1/intake/submissions${query}`, { key });
const get = (id: string, key = w.key) => app.request('GET', `/v1/intake/submissions/${id}`, { key });
const review = (id: string, body: unknown, token = w.provider.token) => app.request('POST', `/v1/intake/submissions/${id}/review`, { key: token, body });

const written = async () => ({
  submissions: await countRows(app, 'intake_submissions'),
  answers: await countRows(app, 'intake_answers'),
  events: await countRows(app, 'events'),
  orders: await countRows(app, 'orders'),
});

async function created(body: Record<string, unknown> = {}, key = w.key): Promise<Record<string, any>> {
  const res = await submit({ questionnaireKey: KEY, patientId: w.patients.ca, answers: eligibleAnswers(), ...body }, key);
  if (res.status !== 201) throw new Error(`submit failed: ${res.status} ${res.text}`);
  return res.body;
}

async function patientIn(key: string, state: string) {
  const body = { firstName: 'Ada', lastName: 'Other', dateOfBirth: '1980-01-01', sex: 'female', address: { line1: '1 Main St', city: 'Town', state, postalCode: '90001' } };
  const res = await app.request('POST', '/v1/patients', { key, body });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.id as string;
}

beforeAll(async () => {
  app = await startTestApp({ ORDER_SYNC_INTERVAL_MS: '60000' });
  w = await ordersWorld(app, 'Intake');
  const protocol = await app.request('POST', '/v1/protocols', { key: w.key, body: { name: 'GLP-1 start', items: [{ productId: w.products.glp, quantity: 1, sig: 'Inject 0.25 mg weekly' }] } });
  if (protocol.status !== 201) throw new Error(protocol.text);
  // The main questionnaire goes the real way (published, then approved by the provider); the rest are planted rows.
  questionnaireHash = (await publishAndApprove(app, w.key, w.provider.token, weightDocument(KEY, protocol.body.id))).contentHash;
  await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: false }, weightDocument(NO_PROTOCOL));
  // The same key approved in live mode and in another tenant: neither is visible from here.
  await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: true }, weightDocument('live-only'));
  other = await createTenantWithKeys(app, 'Other clinic');
  await approvedQuestionnaire(app, { tenantId: other.tenantId, livemode: false }, weightDocument(KEY));
  livePatient = await patientIn(w.liveKey, 'CA');
  otherPatient = await patientIn(other.sandboxKey, 'CA');
});
afterAll(async () => {
  await app?.close();
});

describe('POST /intake/submissions', () => {
  it('an eligible run: 201, pending_review, a certificate, no answers in the body, one event with id and verdict', async () => {
    const before = await written();
    const res = await submit({ questionnaireKey: KEY, patientId: w.patients.ca, answers: eligibleAnswers() });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      object: 'intake_submission',
      livemode: false,
      questionnaireKey: KEY,
      questionnaireVersion: 1,
      patientId: w.patients.ca,
      source: 'in_app',
      status: 'pending_review',
      verdict: 'eligible',
      missing: [],
      hits: [],
      flags: [],
      patientMessages: [],
      orderId: null,
      reviewedBy: null,
      reviewedAt: null,
    });
    expect(res.body.id).toMatch(/^isub_[0-9a-z]{26}$/);
    // The certificate verifies against the published keys alone and names this submission and version.
    const jwks = (await app.request('GET', '/v1/certificates/jwks.json')).body;
    const { payload } = await jwtVerify(res.body.certificate, createLocalJWKSet(jwks), { algorithms: ['EdDSA'] });
    expect(payload).toMatchObject({ sub: res.body.id, tid: w.tenantId, livemode: false, qk: KEY, qv: 1, qh: questionnaireHash, verdict: 'eligible' });
    expect(res.body).not.toHaveProperty('answers');
    expect(await written()).toEqual({ ...before, submissions: before.submissions + 1, answers: before.answers + 1, events: before.events + 1 });
    const events = (await app.services.database.db.execute(sql`select type, data from events where data->>'submissionId' = ${res.body.id}`)) as unknown as { rows: unknown[] };
    expect(events.rows).toEqual([{ type: 'intake.submission.created', data: { submissionId: res.body.id, verdict: 'eligible' } }]);
  });

  it('a review flag keeps it pending_review and eligible, with the rule id and its patient message', async () => {
    const body = await created({ answers: eligibleAnswers({ height: 160, weight: 110 }) });
    expect(body).toMatchObject({ status: 'pending_review', verdict: 'eligible', flags: ['severe_obesity'], hits: [], patientMessages: ['A clinician will look at your answers closely.'] });
    expect(body.certificate).toEqual(expect.any(String));
  });

  it('a disqualifying answer: status disqualified, the rule in hits, no certificate', async () => {
    const body = await created({ answers: eligibleAnswers({ pregnant: true }) });
    expect(body).toMatchObject({ status: 'disqualified', verdict: 'disqualified', hits: ['pregnancy'], certificate: null, patientMessages: ['This treatment is not safe during pregnancy.'] });
  });

  it('an incomplete run is refused with 422 intake_incomplete naming the missing items, nothing written', async () => {
    const before = await written();
    const { pregnant: _p, ...answers } = eligibleAnswers({ takesMeds: true });
    const res = await submit({ questionnaireKey: KEY, patientId: w.patients.ca, answers });
    expectEnvelope(res, 422, 'validation_error', 'intake_incomplete');
    expect(res.body.error.param).toBe('answers.pregnant');
    expect(res.body.error.message).toContain('meds');
    expect(await written()).toEqual(before);
  });

  it('answers that do not fit their items: 400 naming answers.<linkId>, the value never echoed, nothing written', async () => {
    const before = await written();
    const cases: [Record<string, unknown>, string][] = [
      [eligibleAnswers({ height: 'Zyxwvut-tall' }), 'answers.height'],
      [eligibleAnswers({ goal: 'Zyxwvut-option' }), 'answers.goal'],
      [eligibleAnswers({ dob: 'Zyxwvut-date' }), 'answers.dob'],
      [eligibleAnswers({ weight: 9999 }), 'answers.weight'],
    ];
    for (const [answers, param] of cases) {
      const res = await submit({ questionnaireKey: KEY, patientId: w.patients.ca, answers });
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.param, res.text).toBe(param);
      expect(res.text).not.toContain('Zyxwvut');
    }
    const unknown = await submit({ questionnaireKey: KEY, patientId: w.patients.ca, answers: eligibleAnswers({ shoeSize: 42 }) });
    expectEnvelope(unknown, 400, 'validation_error');
    expect(unknown.body.error.param).toBe('answers.shoeSize');
    expect(await written()).toEqual(before);
  });

  it('bad bodies: 400 with the field named, nothing written', async () => {
    const before = await written();
    const bodies: [unknown, string][] = [
      [{ questionnaireKey: KEY, answers: {} }, 'patientId'],
      [{ patientId: w.patients.ca, answers: {} }, 'questionnaireKey'],
      [{ questionnaireKey: KEY, patientId: w.patients.ca }, 'answers'],
      [{ questionnaireKey: KEY, patientId: w.patients.ca, answers: [1, 2] }, 'answers'],
      [{ questionnaireKey: KEY, patientId: w.patients.ca, answers: {}, extra: true }, ''],
    ];
    for (const [body, param] of bodies) {
      const res = await submit(body);
      expectEnvelope(res, 400, 'validation_error');
      if (param) expect(res.body.error.param, res.text).toBe(param);
    }
    expect(await written()).toEqual(before);
  });

  it("unknown, other tenants' and the other mode's patients and questionnaires: 404, nothing written", async () => {
    const before = await written();
    const answers = eligibleAnswers();
    for (const body of [
      { questionnaireKey: KEY, patientId: 'pat_00000000000000000000000000', answers },
      { questionnaireKey: KEY, patientId: otherPatient, answers },
      { questionnaireKey: KEY, patientId: livePatient, answers },
      { questionnaireKey: 'nope', patientId: w.patients.ca, answers },
      { questionnaireKey: 'live-only', patientId: w.patients.ca, answers },
    ]) {
      expectEnvelope(await submit(body), 404, 'not_found');
    }
    expect(await written()).toEqual(before);
  });

  it('needs patients.write (403 without), and an Idempotency-Key replay repeats nothing', async () => {
    const reader = await app.request('POST', '/v1/developer/keys', { key: w.key, body: { name: 'Reader', mode: 'sandbox', keyType: 'restricted', scopes: ['patients.read'] } });
    expect(reader.status, reader.text).toBe(201);
    expectEnvelope(await submit({ questionnaireKey: KEY, patientId: w.patients.ca, answers: eligibleAnswers() }, reader.body.key), 403, 'permission_error', 'missing_scope');
    const before = await written();
    const key = randomUUID();
    const body = { questionnaireKey: KEY, patientId: w.patients.ca, answers: eligibleAnswers() };
    const first = await submit(body, w.key, key);
    const again = await submit(body, w.key, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(await written()).toEqual({ ...before, submissions: before.submissions + 1, answers: before.answers + 1, events: before.events + 1 });
  });
});

describe('GET /intake/submissions', () => {
  it('filters by status, newest first, pages with limit and starting_after', async () => {
    const a = await created();
    const b = await created({ answers: eligibleAnswers({ pregnant: true }) });
    const c = await created();
    const pending = await list('?status=pending_review&sandbox=true');
    expect(pending.status, pending.text).toBe(200);
    const ids = pending.body.map((s: { id: string }) => s.id);
    expect(ids.indexOf(c.id)).toBeLessThan(ids.indexOf(a.id));
    expect(ids).not.toContain(b.id);
    expect(pending.body.every((s: { status: string }) => s.status === 'pending_review')).toBe(true);
    expect(pending.body[0]).not.toHaveProperty('answers');
    const disq = await list('?status=disqualified&sandbox=true');
    expect(disq.body.map((s: { id: string }) => s.id)).toContain(b.id);
    const all = await list('?status=all&sandbox=true&limit=2');
    expect(all.body.map((s: { id: string }) => s.id)).toEqual([c.id, b.id]);
    const next = await list(`?status=all&sandbox=true&limit=1&starting_after=${b.id}`);
    expect(next.body.map((s: { id: string }) => s.id)).toEqual([a.id]);
  });

  it('never shows another tenant or the other mode', async () => {
    const mine = await created();
    const theirs = await list('?status=all&sandbox=true', other.sandboxKey);
    expect(theirs.status).toBe(200);
    expect(theirs.body.map((s: { id: string }) => s.id)).not.toContain(mine.id);
    const live = await list('?status=all&sandbox=false', w.liveKey);
    expect(live.status).toBe(200);
    expect(live.body).toEqual([]);
  });

  it('bad query: unknown status, missing or mismatched sandbox, bad limit → 400', async () => {
    for (const q of ['?sandbox=true', '?status=pending&sandbox=true', '?status=all', '?status=all&sandbox=yes', '?status=all&sandbox=true&limit=0', '?status=all&sandbox=true&limit=101']) {
      expectEnvelope(await list(q), 400, 'validation_error');
    }
    const mismatch = await list('?status=all&sandbox=false');
    expectEnvelope(mismatch, 400, 'validation_error', 'mode_mismatch');
    expect(mismatch.body.error.param).toBe('sandbox');
    expectEnvelope(await list('?status=all&sandbox=true', w.liveKey), 400, 'validation_error', 'mode_mismatch');
  });
});

describe('GET /intake/submissions/{id}', () => {
  it('with patients.read: the answers, and the read is in the patient access log as intake_read', async () => {
    const s = await created();
    const res = await get(s.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, status: 'pending_review', answers: eligibleAnswers(), reviewNote: null });
    const log = await app.request('GET', `/v1/patients/${w.patients.ca}/access-log`, { key: w.key });
    expect(log.body[0]).toMatchObject({ action: 'intake_read', patientId: w.patients.ca, requestId: res.headers.get('x-request-id') });
  });

  it('needs patients.read or intake.review: 403 without, nothing logged', async () => {
    const s = await created();
    const none = await app.request('POST', '/v1/developer/keys', { key: w.key, body: { name: 'Orders only', mode: 'sandbox', keyType: 'restricted', scopes: ['orders.read', 'patients.write'] } });
    const logged = await countRows(app, `patient_access_log where action = 'intake_read'`);
    expectEnvelope(await get(s.id, none.body.key), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await list('?status=all&sandbox=true', none.body.key), 403, 'permission_error', 'missing_scope');
    expect(await countRows(app, `patient_access_log where action = 'intake_read'`)).toBe(logged);
  });

  it('a provider session (intake.review and patients.read) reads the answers too, logged under the provider', async () => {
    const s = await created();
    const res = await get(s.id, w.provider.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.answers).toEqual(eligibleAnswers());
    const log = await app.request('GET', `/v1/patients/${w.patients.ca}/access-log`, { key: w.key });
    expect(log.body[0]).toMatchObject({ action: 'intake_read', actorKind: 'user', actorId: w.provider.id });
  });

  it("another tenant's, the other mode's and unknown ids: 404", async () => {
    const s = await created();
    expectEnvelope(await get(s.id, other.sandboxKey), 404, 'not_found');
    expectEnvelope(await get(s.id, w.liveKey), 404, 'not_found');
    expectEnvelope(await get('isub_00000000000000000000000000'), 404, 'not_found');
  });
});

describe('POST /intake/submissions/{id}/review', () => {
  const order = (id: string) => app.request('GET', `/v1/orders/${id}`, { key: w.key });

  it('approve: the order from the protocol, approved by the provider, submitted at the simulated pharmacy', async () => {
    const s = await created();
    const res = await review(s.id, { decision: 'approve', note: 'Looks fine' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, status: 'approved', reviewedBy: w.provider.id, verdict: 'eligible' });
    expect(res.body.orderId).toMatch(/^ord_/);
    expect(Date.parse(res.body.reviewedAt)).not.toBeNaN();
    expect(res.text).not.toContain('Looks fine');
    const o = (await order(res.body.orderId)).body;
    expect(o).toMatchObject({ status: 'submitted', source: 'intake', patientId: w.patients.ca, pharmacyConnectionId: w.pharmacies.alpha, approvedBy: w.provider.id });
    expect(o.items).toEqual([{ productId: w.products.glp, quantity: 1, sig: 'Inject 0.25 mg weekly', refills: 0 }]);
    expect(await countRows(app, `simulated_pharmacy_orders where payload->>'orderId' = '${o.id}'`)).toBe(1);
    const snap = (await app.services.database.db.execute(sql`select approval_snapshot as s from orders where id = ${o.id}`)) as unknown as { rows: { s: { intake: unknown } }[] };
    expect(snap.rows[0].s.intake).toEqual({ submissionId: s.id, questionnaireHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // The note is the provider's: visible only to a patients.read credential.
    expect((await get(s.id)).body.reviewNote).toBe('Looks fine');
    // Decided once: a second approve or a reject is a 409 and changes nothing.
    const before = await written();
    expectEnvelope(await review(s.id, { decision: 'approve' }), 409, 'conflict', 'submission_already_reviewed');
    expectEnvelope(await review(s.id, { decision: 'reject' }), 409, 'conflict', 'submission_already_reviewed');
    expect(await written()).toEqual(before);
  });

  it('the approval survives a reroute: rejected by the pharmacy, rerouted and submitted without a new review', async () => {
    const s = await created();
    const id = (await review(s.id, { decision: 'approve' })).body.orderId as string;
    const res = (await app.services.database.db.execute(sql`select idempotency_key as key from order_dispatches where order_id = ${id}`)) as unknown as { rows: { key: string }[] };
    const raw = JSON.stringify({ idempotencyKey: res.rows[0].key, status: 'rejected', reasonCode: 'out_of_stock' });
    const msgId = `msg_${randomUUID()}`;
    const at = new Date();
    const headers = { 'content-type': 'application/json', 'webhook-id': msgId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(w.pharmacies.alphaSecret).sign(msgId, at, raw) };
    expect((await app.request('POST', `/v1/pharmacy-callbacks/${w.pharmacies.alpha}`, { rawBody: raw, headers })).status).toBe(200);
    expect((await order(id)).body.status).toBe('rejected');
    expect((await app.request('POST', `/v1/orders/${id}/reroute`, { key: w.key, body: {} })).body.rerouted).toBe(true);
    const sent = await app.request('POST', `/v1/orders/${id}/submit`, { key: w.key, body: {} });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toMatchObject({ status: 'submitted', pharmacyConnectionId: w.pharmacies.beta });
  });

  it('reject records the reason and creates no order', async () => {
    const s = await created();
    const before = await written();
    const res = await review(s.id, { decision: 'reject', note: 'Needs labs first' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'rejected', orderId: null, reviewedBy: w.provider.id });
    expect(res.text).not.toContain('Needs labs');
    expect(await written()).toEqual(before);
    expect((await get(s.id)).body.reviewNote).toBe('Needs labs first');
  });

  it('a disqualified submission cannot be approved (409 submission_disqualified); it can be rejected', async () => {
    const s = await created({ answers: eligibleAnswers({ pregnant: true }) });
    const before = await written();
    expectEnvelope(await review(s.id, { decision: 'approve' }), 409, 'conflict', 'submission_disqualified');
    expect(await written()).toEqual(before);
    expect((await get(s.id)).body.status).toBe('disqualified');
  });

  it('a questionnaire without a protocol: 409 questionnaire_without_protocol, the submission still pending', async () => {
    const s = await created({ questionnaireKey: NO_PROTOCOL });
    const before = await written();
    expectEnvelope(await review(s.id, { decision: 'approve' }), 409, 'conflict', 'questionnaire_without_protocol');
    expect(await written()).toEqual(before);
    expect((await get(s.id)).body).toMatchObject({ status: 'pending_review', reviewedBy: null });
  });

  it('a protocol gone inactive, or one with an inactive product: 409 protocol_unavailable, nothing written', async () => {
    const protocolOf = async (productId: string) => {
      const res = await app.request('POST', '/v1/protocols', { key: w.key, body: { name: `P ${randomUUID()}`, items: [{ productId, quantity: 1, sig: 'Use as directed' }] } });
      return res.body.id as string;
    };
    const inactiveProtocol = await protocolOf(w.products.glp);
    await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: false }, weightDocument('weight-off', inactiveProtocol));
    expect((await app.request('PATCH', `/v1/protocols/${inactiveProtocol}`, { key: w.key, body: { active: false } })).status).toBe(200);
    const ndlProtocol = await protocolOf(w.products.ndl);
    await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: false }, weightDocument('weight-ndl', ndlProtocol));
    const a = await created({ questionnaireKey: 'weight-off' });
    const b = await created({ questionnaireKey: 'weight-ndl' });
    expect((await app.request('PATCH', `/v1/products/${w.products.ndl}`, { key: w.key, body: { active: false } })).status).toBe(200);
    const before = await written();
    for (const s of [a, b]) expectEnvelope(await review(s.id, { decision: 'approve' }), 409, 'conflict', 'protocol_unavailable');
    expect(await written()).toEqual(before);
    expect((await get(b.id)).body.status).toBe('pending_review');
  });

  it('only a provider licensed in the patient’s state: keys, admins and other states get 403, nothing written', async () => {
    const s = await created({ patientId: w.patients.tx });
    const admin = await createUserAndLogin(app, w.tenantId, { email: `admin-${randomUUID()}@clinic.test`, role: 'admin' });
    const before = await written();
    // Secret keys and admins do not even hold intake.review; a provider role is checked after it.
    const refusals: [ApiResponse, string | undefined][] = [
      [await review(s.id, { decision: 'approve' }, w.key), undefined],
      [await review(s.id, { decision: 'approve' }, admin.token), undefined],
      [await review(s.id, { decision: 'approve' }), 'provider_not_licensed'],
      [await review(s.id, { decision: 'reject' }), 'provider_not_licensed'],
    ];
    for (const [res, code] of refusals) expectEnvelope(res, 403, 'permission_error', code);
    expect(await written()).toEqual(before);
    const texan = await providerSession(app, w.tenantId, ['TX']);
    const ok = await review(s.id, { decision: 'approve' }, texan.token);
    expect(ok.status, ok.text).toBe(200);
    expect((await order(ok.body.orderId)).body.status).toBe('submitted');
  });

  it('two approvals at once: one order, the other 409', async () => {
    const s = await created();
    const before = await written();
    const [x, y] = await Promise.all([review(s.id, { decision: 'approve' }), review(s.id, { decision: 'approve' })]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const after = await written();
    expect({ orders: after.orders, submissions: after.submissions }).toEqual({ orders: before.orders + 1, submissions: before.submissions });
    expect(await countRows(app, `orders where approval_snapshot->'intake'->>'submissionId' = '${s.id}'`)).toBe(1);
  });

  it('a provider without MFA or without a verified NPI: 403, nothing written', async () => {
    const s = await created();
    const noMfa = await createUserAndLogin(app, w.tenantId, { email: `nomfa-${randomUUID()}@clinic.test`, role: 'provider', npi: VALID_NPI, npiVerified: true, licensedStates: ['CA'] });
    const noNpi = await createUserAndLogin(app, w.tenantId, { email: `nonpi-${randomUUID()}@clinic.test`, role: 'provider', npi: VALID_NPI, npiVerified: false, licensedStates: ['CA'] });
    const before = await written();
    expectEnvelope(await review(s.id, { decision: 'approve' }, noMfa.token), 403, 'permission_error', 'mfa_required');
    expectEnvelope(await review(s.id, { decision: 'approve' }, noNpi.token), 403, 'permission_error', 'npi_not_verified');
    expect(await written()).toEqual(before);
  });

  it("bad bodies → 400; another tenant's, the other mode's and unknown ids → 404; nothing written", async () => {
    const s = await created();
    const before = await written();
    for (const body of [{}, { decision: 'maybe' }, { decision: 'approve', note: 'x'.repeat(2001) }, { decision: 'approve', extra: 1 }]) {
      expectEnvelope(await review(s.id, body), 400, 'validation_error');
    }
    const otherProvider = await providerSession(app, other.tenantId, ['CA']);
    expectEnvelope(await review(s.id, { decision: 'approve' }, otherProvider.token), 404, 'not_found');
    const live = await app.request('POST', `/v1/intake/submissions/${s.id}/review`, { key: w.provider.token, body: { decision: 'approve' }, headers: { 'x-mode': 'live' } });
    expectEnvelope(live, 404, 'not_found');
    expectEnvelope(await review('isub_00000000000000000000000000', { decision: 'approve' }), 404, 'not_found');
    expect(await written()).toEqual(before);
    expect((await get(s.id)).body.status).toBe('pending_review');
  });
});
