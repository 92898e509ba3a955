import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, startTestApp, type ApiResponse, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';
import { captureLogs } from './helpers/logs';
import { ordersWorld } from './helpers/orders-world';
import { startReceiver, waitFor, type Receiver } from './helpers/webhooks';

/*
 * Issue 22 item 7: a patient with distinctive details answers distinctively, is submitted, reviewed and read;
 * then the event log, every webhook delivery (stored and received), the whole log at every level, the error
 * bodies and the stored idempotent responses are searched for those details. None may appear.
 */

const PLANTED = {
  firstName: 'Xavierplanted',
  lastName: 'Qintakeplanted',
  email: 'q.intake@planted-phi.test',
  dateOfBirth: '1959-11-23',
  line1: '41 Plantedlane Road',
  medsAnswer: 'Zqmedplanted 75 mg nightly',
  badAnswer: 'Zqbadplanted-value',
  approveNote: 'Zqnoteplanted approve remark',
  rejectNote: 'Zqnoteplanted reject reason',
};

let app: TestApp;
let w: Awaited<ReturnType<typeof ordersWorld>>;
let receiver: Receiver;
let logs: ReturnType<typeof captureLogs>;
let patientId: string;
const errorBodies: string[] = [];

async function rowsText(query: ReturnType<typeof sql>) {
  const res = (await app.services.database.db.execute(query)) as unknown as { rows: unknown[] };
  return { count: res.rows.length, text: JSON.stringify(res.rows) };
}

function expectNoPlanted(text: string, where: string) {
  for (const [field, value] of Object.entries(PLANTED)) expect(text, `${field} in ${where}`).not.toContain(value);
  for (const fragment of ['planted', 'Planted', '1959-11-23']) expect(text, `${fragment} in ${where}`).not.toContain(fragment);
}

const answers = () => eligibleAnswers({ dob: PLANTED.dateOfBirth, takesMeds: true, meds: PLANTED.medsAnswer });
const submit = (body: Record<string, unknown>, idempotencyKey?: string) =>
  app.request('POST', '/v1/intake/submissions', { key: w.key, idempotencyKey, body: { questionnaireKey: 'weight', patientId, answers: answers(), ...body } });
const keepError = (res: ApiResponse) => (errorBodies.push(res.text), res);

beforeAll(async () => {
  app = await startTestApp({ RUN_WORKER: 'true', WORKER_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '0,100ms', ORDER_SYNC_INTERVAL_MS: '60000', LOG_LEVEL: 'trace' });
  logs = captureLogs();
  w = await ordersWorld(app, 'Intake PHI');
  receiver = await startReceiver();
  const hook = await app.request('POST', '/v1/developer/webhooks', { key: w.key, body: { url: `${receiver.url}/hook` } });
  if (hook.status !== 201) throw new Error(hook.text);
  const protocol = await app.request('POST', '/v1/protocols', { key: w.key, body: { name: 'GLP-1 start', items: [{ productId: w.products.glp, quantity: 1, sig: 'Inject 0.25 mg weekly' }] } });
  await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: false }, weightDocument('weight', protocol.body.id));
  const patient = await app.request('POST', '/v1/patients', {
    key: w.key,
    body: { firstName: PLANTED.firstName, lastName: PLANTED.lastName, dateOfBirth: PLANTED.dateOfBirth, sex: 'female', email: PLANTED.email, address: { line1: PLANTED.line1, city: 'Town', state: 'CA', postalCode: '90001' } },
  });
  if (patient.status !== 201) throw new Error(patient.text);
  patientId = patient.body.id;
});
afterAll(async () => {
  logs?.restore();
  await receiver?.close();
  await app?.close();
});

describe('intake submissions keep PHI out of events, webhooks, logs, errors and stored responses', () => {
  it('runs submissions, reviews and reads with planted details, then finds none of them anywhere', async () => {
    const eligible = await submit({}, randomUUID());
    expect(eligible.status, eligible.text).toBe(201);
    const toReject = await submit({}, randomUUID());
    expect(toReject.status, toReject.text).toBe(201);
    const disqualified = await submit({ answers: { ...answers(), pregnant: true } }, randomUUID());
    expect(disqualified.body.status).toBe('disqualified');

    // Refusals whose bodies carry the planted values: none of them is echoed.
    expectEnvelope(keepError(await submit({ answers: { ...answers(), height: PLANTED.badAnswer } }, randomUUID())), 400, 'validation_error');
    expectEnvelope(keepError(await submit({ answers: { ...answers(), goal: PLANTED.badAnswer } })), 400, 'validation_error');
    expectEnvelope(keepError(await submit({ answers: { ...answers(), dob: PLANTED.badAnswer } })), 400, 'validation_error');
    expectEnvelope(keepError(await submit({ answers: { ...answers(), pregnant: PLANTED.email } })), 400, 'validation_error');
    const { pregnant: _p, ...incomplete } = answers();
    expectEnvelope(keepError(await submit({ answers: incomplete })), 422, 'validation_error', 'intake_incomplete');
    expectEnvelope(keepError(await submit({ questionnaireKey: PLANTED.email })), 404, 'not_found');
    expectEnvelope(keepError(await submit({ patientId: PLANTED.lastName })), 404, 'not_found');
    expectEnvelope(keepError(await app.request('GET', `/v1/intake/submissions/${encodeURIComponent(PLANTED.email)}`, { key: w.key })), 404, 'not_found');

    const approved = await app.request('POST', `/v1/intake/submissions/${eligible.body.id}/review`, { key: w.provider.token, idempotencyKey: randomUUID(), body: { decision: 'approve', note: PLANTED.approveNote } });
    expect(approved.status, approved.text).toBe(200);
    const rejected = await app.request('POST', `/v1/intake/submissions/${toReject.body.id}/review`, { key: w.provider.token, idempotencyKey: randomUUID(), body: { decision: 'reject', note: PLANTED.rejectNote } });
    expect(rejected.status, rejected.text).toBe(200);
    expectEnvelope(keepError(await app.request('POST', `/v1/intake/submissions/${disqualified.body.id}/review`, { key: w.provider.token, body: { decision: 'approve', note: PLANTED.approveNote } })), 409, 'conflict');
    expectEnvelope(keepError(await app.request('POST', `/v1/intake/submissions/${eligible.body.id}/review`, { key: w.provider.token, body: { decision: 'maybe', note: PLANTED.approveNote } })), 400, 'validation_error');

    // Reads that do disclose (to a patients.read credential), so the log must still stay clean.
    const detail = await app.request('GET', `/v1/intake/submissions/${eligible.body.id}`, { key: w.key });
    expect(detail.body.answers.meds).toBe(PLANTED.medsAnswer);
    expect(detail.body.reviewNote).toBe(PLANTED.approveNote);
    expect((await app.request('GET', '/v1/intake/submissions?status=all&sandbox=true', { key: w.key })).status).toBe(200);

    // The responses that are not PHI reads carry none either.
    for (const res of [eligible, toReject, disqualified, approved, rejected]) expectNoPlanted(res.text, 'a submission response');

    // Every event reached the receiver: three submissions, the approved order's routing.
    const events = await rowsText(sql`select type, data from events where tenant_id = ${w.tenantId}`);
    expect(events.text).toContain('intake.submission.created');
    expect(events.text).toContain('order.routed');
    await waitFor(() => receiver.received.length >= events.count, { what: 'every event delivered' });

    expectNoPlanted(events.text, 'the event log');
    expectNoPlanted((await rowsText(sql`select * from webhook_deliveries`)).text, 'webhook deliveries');
    expectNoPlanted(receiver.received.map((r) => r.body).join('\n'), 'received webhooks');
    const stored = await rowsText(sql`select * from idempotency_keys`);
    expect(stored.count).toBeGreaterThanOrEqual(5);
    expectNoPlanted(stored.text, 'stored idempotent responses');
    expectNoPlanted(errorBodies.join('\n'), 'error bodies');
    // Everything logged since the app started, at every level (the capture is at trace).
    expectNoPlanted(logs.text(), 'the log');
  });
});
