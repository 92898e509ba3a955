import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { flowSessions, intakeSubmissions } from '@/db/schema';
import { checkoutUrlFor, enqueueConversionPostbacks } from '@/server/domain/flows/checkout';
import { signHandoffToken } from '@/server/domain/flows/checkout-token';
import type { FlowDocument } from '@/server/domain/flows/flow-schema';
import { newSecretId } from '@/server/lib/ids';
import { countRows, createTenantWithKeys, expectEnvelope, OPS_KEY, startTestApp, type TestApp } from './helpers/harness';
import { CONTACT, flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { eligibleAnswers, publishAndApprove, weightDocument } from './helpers/intake-world';
import { ordersWorld } from './helpers/orders-world';
import { captureLogs } from './helpers/logs';
import { jobsDone, startReceiver, TEST_TIMEOUT_MS, waitFor, type Receiver } from './helpers/webhooks';

vi.setConfig({ testTimeout: TEST_TIMEOUT_MS });

/*
 * Issue 23 item 6, DESIGN decision 28: the checkout handoff behind `flow_checkout` (a signed, expiring
 * `fr_token` on the store URL; the store's Standard Webhooks-signed callback recording its order id once and
 * emitting `flow.checkout.completed`; the order a provider approves carrying it as `foreignOrderId`) and the
 * conversion postbacks (outbox, eligible runs only, ids only, webhook URL rules).
 */

type World = Awaited<ReturnType<typeof ordersWorld>>;
type Flow = Awaited<ReturnType<typeof publishedFlow>> & { doc: FlowDocument; scope: { tenantId: string; livemode: boolean } };

const KEY = 'weight';
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const STORE = 'https://store.example/checkout?ref=fr';
const PATIENT_WORDS = ['Quinn', 'Plantedname', 'plantedmail', '1971-07-17', '1980-04-02'];

let app: TestApp;
let w: World;
let questionnaire: Awaited<ReturnType<typeof publishAndApprove>>;
let receiver: Receiver;
let flow: Flow;
let other: Awaited<ReturnType<typeof createTenantWithKeys>>;

const db = () => app.services.database.db;
const setFeature = (tenantId: string, on: boolean) => app.request('PATCH', `/v1/ops/tenants/${tenantId}`, { key: OPS_KEY, body: { features: { flow_checkout: on } } });

async function makeFlow(scope: { tenantId: string; livemode: boolean }, settings: Partial<FlowDocument['settings']>, q = questionnaire): Promise<Flow> {
  const doc = weightFlowDocument(KEY, settings);
  return { ...(await publishedFlow(app, scope, q, doc)), doc, scope };
}

/**
 * An eligible (or disqualified) flow run as submit leaves it: an intake submission of source flow, the closed
 * session naming it, and the handoff (checkoutUrlFor, postbacks queued in the same transaction).
 */
async function run(f: Flow, opts: { verdict?: 'eligible' | 'disqualified'; features?: { flow_checkout?: boolean }; patientId?: string; key?: string } = {}) {
  const verdict = opts.verdict ?? 'eligible';
  const answers = verdict === 'eligible' ? eligibleAnswers() : eligibleAnswers({ pregnant: true });
  const submitted = await app.request('POST', '/v1/intake/submissions', { key: opts.key ?? w.key, body: { questionnaireKey: KEY, patientId: opts.patientId ?? w.patients.ca, answers } });
  if (submitted.status !== 201) throw new Error(submitted.text);
  const submissionId = submitted.body.id as string;
  const sessionId = newSecretId('flowSession');
  const at = new Date();
  await db()
    .insert(flowSessions)
    .values({ id: sessionId, ...f.scope, flowId: f.flowId, flowVersionId: f.versionId, embedKeyId: f.embedKey, status: 'completed', verdict, submissionId, expiresAt: new Date(at.getTime() + 86_400_000), completedAt: at, createdAt: at, updatedAt: at });
  await db().update(intakeSubmissions).set({ source: 'flow', flowId: f.flowId, flowSessionId: sessionId }).where(eq(intakeSubmissions.id, submissionId));
  const handoff = { flowId: f.flowId, sessionId, submissionId };
  let checkoutUrl: string | null = null;
  if (verdict === 'eligible') {
    checkoutUrl = checkoutUrlFor(f.doc, opts.features ?? { flow_checkout: true }, handoff, at);
    await db().transaction((tx) => enqueueConversionPostbacks(tx, f.scope, f.doc, handoff));
  }
  return { sessionId, submissionId, checkoutUrl };
}

const tokenOf = (url: string | null) => new URL(url!).searchParams.get('fr_token')!;

/** What a store sends: Standard Webhooks signature made with the reference library and the flow's secret. */
function callback(flowId: string, body: unknown, opts: { secret?: string; signer?: Webhook; at?: Date; id?: string; headers?: Record<string, string> } = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const at = opts.at ?? new Date();
  const id = opts.id ?? `msg_${randomBytes(6).toString('hex')}`;
  const headers = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': (opts.signer ?? new Webhook(opts.secret ?? SECRET)).sign(id, at, raw),
    ...opts.headers,
  };
  return app.request('POST', `/v1/flows/checkout-callbacks/${flowId}`, { rawBody: raw, headers });
}

const completed = (frToken: string, externalOrderId = `shop-${randomBytes(4).toString('hex')}`) => ({ type: 'checkout.completed', frToken, externalOrderId });

async function sessionRow(id: string) {
  const [row] = await db().select().from(flowSessions).where(eq(flowSessions.id, id));
  return row;
}
async function checkoutEvents(sessionId: string) {
  const res = (await db().execute(sql`select data from events where type = 'flow.checkout.completed' and data->>'sessionId' = ${sessionId}`)) as unknown as { rows: { data: unknown }[] };
  return res.rows.map((r) => r.data);
}
const postbacksFor = (sessionId: string, path = '/pb') => receiver.received.filter((x) => x.path === path && JSON.parse(x.body).sessionId === sessionId);
const review = (submissionId: string) => app.request('POST', `/v1/intake/submissions/${submissionId}/review`, { key: w.provider.token, body: { decision: 'approve' } });

beforeAll(async () => {
  app = await startTestApp({ RUN_WORKER: 'true', WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms', WORKER_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '1000', ORDER_SYNC_INTERVAL_MS: '60000' });
  receiver = await startReceiver((r) => (r.path.startsWith('/flaky') && receiver.received.filter((x) => x.path.startsWith('/flaky')).length < 3 ? { status: 503 } : undefined));
  w = await ordersWorld(app, 'Checkout clinic');
  const protocol = await app.request('POST', '/v1/protocols', { key: w.key, body: { name: 'GLP-1 start', items: [{ productId: w.products.glp, quantity: 1, sig: 'Inject 0.25 mg weekly' }] } });
  if (protocol.status !== 201) throw new Error(protocol.text);
  questionnaire = await publishAndApprove(app, w.key, w.provider.token, weightDocument(KEY, protocol.body.id));
  flow = await makeFlow({ tenantId: w.tenantId, livemode: false }, { checkout: { storeUrl: STORE, secret: SECRET }, conversionPostbacks: [`${receiver.url}/pb`] });
  expect((await setFeature(w.tenantId, true)).status).toBe(200);
  other = await createTenantWithKeys(app, 'Other clinic');
});
afterAll(async () => {
  await receiver?.close();
  await app?.close();
});

describe('checkoutUrlFor', () => {
  it('with the flag: the store URL, its own query kept, plus an fr_token (HS256, 24 h) naming only the flow and the session', async () => {
    const r = await run(flow);
    const url = new URL(r.checkoutUrl!);
    expect(`${url.origin}${url.pathname}`).toBe('https://store.example/checkout');
    expect(url.searchParams.get('ref')).toBe('fr');
    const token = tokenOf(r.checkoutUrl);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    // The store verifies it with any JWT library and the key its Standard Webhooks library derives from the secret.
    const { payload } = await jwtVerify(token, Buffer.from(SECRET.slice('whsec_'.length), 'base64'), { algorithms: ['HS256'] });
    expect(Object.keys(payload).sort()).toEqual(['exp', 'fid', 'iat', 'sid']);
    expect(payload).toMatchObject({ fid: flow.flowId, sid: r.sessionId });
    expect(payload.exp! - payload.iat!).toBe(24 * 3600);
    await expect(jwtVerify(token, new TextEncoder().encode('another secret of enough length'), { algorithms: ['HS256'] })).rejects.toThrow();
  });

  it('without the flag or without a checkout setting: null', async () => {
    const r = await run(flow, { features: { flow_checkout: false } });
    expect(r.checkoutUrl).toBeNull();
    const bare = await makeFlow(flow.scope, {});
    expect((await run(bare)).checkoutUrl).toBeNull();
  });

  it('a secret that is not base64 keys the HMAC with its UTF-8 bytes', async () => {
    const plain = 'a plain shared secret, not base64!';
    const f = await makeFlow(flow.scope, { checkout: { storeUrl: STORE, secret: plain } });
    const r = await run(f);
    const { payload } = await jwtVerify(tokenOf(r.checkoutUrl), new TextEncoder().encode(plain), { algorithms: ['HS256'] });
    expect(payload.sid).toBe(r.sessionId);
    // …and the store signs its callback the same way (the reference library's "raw" format).
    const res = await callback(f.flowId, completed(tokenOf(r.checkoutUrl), 'raw-1'), { signer: new Webhook(new TextEncoder().encode(plain), { format: 'raw' }) });
    expect(res.status, res.text).toBe(200);
    expect((await sessionRow(r.sessionId)).externalOrderId).toBe('raw-1');
  });
});


describe('POST /v1/flows/checkout-callbacks/{flowId}', () => {
  it('a signed callback: 200, the store id on the session, flow.checkout.completed once; a repeat changes nothing', async () => {
    const r = await run(flow);
    const body = completed(tokenOf(r.checkoutUrl), 'shop:1001.A_b-2');
    const first = await callback(flow.flowId, body);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ ok: true });
    const row = await sessionRow(r.sessionId);
    expect(row.externalOrderId).toBe('shop:1001.A_b-2');
    expect(row.checkoutCompletedAt).toBeInstanceOf(Date);
    expect(await checkoutEvents(r.sessionId)).toEqual([{ flowId: flow.flowId, sessionId: r.sessionId, externalOrderId: 'shop:1001.A_b-2' }]);

    const events = await countRows(app, 'events');
    const again = await callback(flow.flowId, body);
    expect(again.status, again.text).toBe(200);
    expect(await countRows(app, 'events')).toBe(events);
    expect((await sessionRow(r.sessionId)).checkoutCompletedAt).toEqual(row.checkoutCompletedAt);

    // Another order id for a checkout already recorded is a conflict, and nothing moves.
    const changed = await callback(flow.flowId, completed(tokenOf(r.checkoutUrl), 'shop-9999'));
    expectEnvelope(changed, 409, 'conflict', 'checkout_already_completed');
    expect((await sessionRow(r.sessionId)).externalOrderId).toBe('shop:1001.A_b-2');
    expect(await countRows(app, 'events')).toBe(events);
  });

  it('a bad, missing or stale signature: 401, nothing changed', async () => {
    const r = await run(flow);
    const body = completed(tokenOf(r.checkoutUrl));
    const before = await countRows(app, 'events');
    expectEnvelope(await callback(flow.flowId, body, { secret: `whsec_${randomBytes(32).toString('base64')}` }), 401, 'authentication_error', 'invalid_signature');
    expectEnvelope(await callback(flow.flowId, body, { headers: { 'webhook-signature': '' } }), 401, 'authentication_error', 'invalid_signature');
    expectEnvelope(await callback(flow.flowId, body, { at: new Date(Date.now() - 10 * 60_000) }), 401, 'authentication_error', 'stale_signature');
    // A body altered after signing.
    const signed = new Webhook(SECRET).sign('msg_x', new Date(), JSON.stringify(body));
    const tampered = await app.request('POST', `/v1/flows/checkout-callbacks/${flow.flowId}`, {
      rawBody: JSON.stringify({ ...body, externalOrderId: 'shop-evil' }),
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': signed },
    });
    expectEnvelope(tampered, 401, 'authentication_error', 'invalid_signature');
    expect(await sessionRow(r.sessionId)).toMatchObject({ externalOrderId: null, checkoutCompletedAt: null });
    expect(await countRows(app, 'events')).toBe(before);
  });

  it('a body that does not match, or a token that does not verify: 400 naming the field, the value never echoed, nothing changed', async () => {
    const r = await run(flow);
    const token = tokenOf(r.checkoutUrl);
    const before = await countRows(app, 'events');
    const bad = await callback(flow.flowId, completed(token, 'Jane Doe jane@example.com'));
    expectEnvelope(bad, 400, 'validation_error');
    expect(bad.body.error.param).toBe('externalOrderId');
    expect(bad.text).not.toContain('jane');
    const extra = await callback(flow.flowId, { ...completed(token), email: 'jane@example.com' });
    expectEnvelope(extra, 400, 'validation_error');
    expect(extra.text).not.toContain('jane@example.com');
    expectEnvelope(await callback(flow.flowId, { ...completed(token), type: 'checkout.refunded' }), 400, 'validation_error');
    expectEnvelope(await callback(flow.flowId, 'not json'), 400, 'validation_error', 'invalid_json');

    const garbage = await callback(flow.flowId, completed('not-a-token'));
    expectEnvelope(garbage, 400, 'validation_error', 'invalid_fr_token');
    expect(garbage.body.error.param).toBe('frToken');
    const forged = signHandoffToken(`whsec_${randomBytes(32).toString('base64')}`, { flowId: flow.flowId, sessionId: r.sessionId }, new Date());
    expectEnvelope(await callback(flow.flowId, completed(forged)), 400, 'validation_error', 'invalid_fr_token');
    const old = signHandoffToken(SECRET, { flowId: flow.flowId, sessionId: r.sessionId }, new Date(Date.now() - 25 * 3_600_000));
    expectEnvelope(await callback(flow.flowId, completed(old)), 400, 'validation_error', 'fr_token_expired');
    // alg none, with the right claims, is refused as well.
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${token.split('.')[1]}.`;
    expectEnvelope(await callback(flow.flowId, completed(unsigned)), 400, 'validation_error', 'invalid_fr_token');

    expect(await sessionRow(r.sessionId)).toMatchObject({ externalOrderId: null, checkoutCompletedAt: null });
    expect(await countRows(app, 'events')).toBe(before);
  });

  it("another flow's token, another tenant's session or an unknown flow: 404; a token for another flow of the same secret too", async () => {
    const r = await run(flow);
    const theirs = await makeFlow({ tenantId: other.tenantId, livemode: false }, { checkout: { storeUrl: STORE, secret: SECRET } }, { ...questionnaire });
    await setFeature(other.tenantId, true);
    // Their store (same secret, by chance or on purpose) cannot reach this clinic's session through their flow.
    const crossTenant = signHandoffToken(SECRET, { flowId: theirs.flowId, sessionId: r.sessionId }, new Date());
    expectEnvelope(await callback(theirs.flowId, completed(crossTenant)), 404, 'not_found');
    // Nor post this flow's token to their flow.
    expectEnvelope(await callback(theirs.flowId, completed(tokenOf(r.checkoutUrl))), 404, 'not_found');
    // A live flow of this clinic does not see the sandbox session either.
    const live = await makeFlow({ tenantId: w.tenantId, livemode: true }, { checkout: { storeUrl: STORE, secret: SECRET } });
    expectEnvelope(await callback(live.flowId, completed(signHandoffToken(SECRET, { flowId: live.flowId, sessionId: r.sessionId }, new Date()))), 404, 'not_found');
    expectEnvelope(await callback('flw_01jzzzzzzzzzzzzzzzzzzzzzzz', completed(tokenOf(r.checkoutUrl))), 404, 'not_found');
    expect(await sessionRow(r.sessionId)).toMatchObject({ externalOrderId: null });
  });

  it('without the flag: 403 feature_disabled, nothing changed', async () => {
    const r = await run(flow);
    await setFeature(w.tenantId, false);
    try {
      const res = await callback(flow.flowId, completed(tokenOf(r.checkoutUrl)));
      expectEnvelope(res, 403, 'permission_error', 'feature_disabled');
      expect(res.body.error.message).toContain('flow_checkout');
    } finally {
      await setFeature(w.tenantId, true);
    }
    expect(await sessionRow(r.sessionId)).toMatchObject({ externalOrderId: null });
  });

  it('a disqualified run is never checked out (409); a flow without a checkout setting cannot be called back (409)', async () => {
    const d = await run(flow, { verdict: 'disqualified' });
    const token = signHandoffToken(SECRET, { flowId: flow.flowId, sessionId: d.sessionId }, new Date());
    expectEnvelope(await callback(flow.flowId, completed(token)), 409, 'conflict', 'session_not_eligible');
    expect(await checkoutEvents(d.sessionId)).toEqual([]);
    const bare = await makeFlow(flow.scope, {});
    const b = await run(bare);
    expectEnvelope(await callback(bare.flowId, completed(signHandoffToken(SECRET, { flowId: bare.flowId, sessionId: b.sessionId }, new Date()))), 409, 'conflict', 'checkout_not_configured');
  });

  it('one store order id cannot be reported for two sessions', async () => {
    const [a, b] = [await run(flow), await run(flow)];
    expect((await callback(flow.flowId, completed(tokenOf(a.checkoutUrl), 'shop-dup'))).status).toBe(200);
    expectEnvelope(await callback(flow.flowId, completed(tokenOf(b.checkoutUrl), 'shop-dup')), 409, 'conflict', 'duplicate_external_order');
    expect(await sessionRow(b.sessionId)).toMatchObject({ externalOrderId: null });
  });

  it('six signed callbacks in parallel, six sessions, one store order id: one 200, the rest 409, one event (the unique index decides)', async () => {
    const runs = await Promise.all(Array.from({ length: 6 }, () => run(flow)));
    const results = await Promise.all(runs.map((r) => callback(flow.flowId, completed(tokenOf(r.checkoutUrl), 'shop-race'))));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expectEnvelope(r, 409, 'conflict', 'duplicate_external_order');
    const sessions = await Promise.all(runs.map((r) => sessionRow(r.sessionId)));
    expect(sessions.filter((x) => x.externalOrderId === 'shop-race')).toHaveLength(1);
    const events = (await Promise.all(runs.map((r) => checkoutEvents(r.sessionId)))).flat();
    expect(events).toHaveLength(1);
  });

  it('is served only under /v1, and its literal segment wins over /flows/{id}/…', async () => {
    const res = await app.request('POST', '/api/trpc/flowCheckout.receiveCallback', { body: { flowId: flow.flowId } });
    expect(res.status).toBe(404);
    // Were /flows/{id}/publish to take it, an unauthenticated call would be a 401.
    expectEnvelope(await callback('publish', completed('x')), 404, 'not_found');
  });
});

describe('foreignOrderId on the order', () => {
  it('checkout before the provider approves: the order is created with the store id', async () => {
    const r = await run(flow);
    expect((await callback(flow.flowId, completed(tokenOf(r.checkoutUrl), 'shop-before-1'))).status).toBe(200);
    const reviewed = await review(r.submissionId);
    expect(reviewed.status, reviewed.text).toBe(200);
    const order = await app.request('GET', `/v1/orders/${reviewed.body.orderId}`, { key: w.key });
    expect(order.body).toMatchObject({ source: 'flow', foreignOrderId: 'shop-before-1' });
  });

  it('checkout after the provider approved: the existing order gets the store id then', async () => {
    const r = await run(flow);
    const reviewed = await review(r.submissionId);
    expect(reviewed.status, reviewed.text).toBe(200);
    expect((await app.request('GET', `/v1/orders/${reviewed.body.orderId}`, { key: w.key })).body.foreignOrderId).toBeNull();
    expect((await callback(flow.flowId, completed(tokenOf(r.checkoutUrl), 'shop-after-1'))).status).toBe(200);
    expect((await app.request('GET', `/v1/orders/${reviewed.body.orderId}`, { key: w.key })).body.foreignOrderId).toBe('shop-after-1');
  });

  it('a run without a checkout gets an order without one', async () => {
    const r = await run(flow);
    const reviewed = await review(r.submissionId);
    expect((await app.request('GET', `/v1/orders/${reviewed.body.orderId}`, { key: w.key })).body).toMatchObject({ source: 'flow', foreignOrderId: null });
  });
});

describe("the flow's protocol", () => {
  it("an approved run orders the flow version's settings.protocolId, not the questionnaire's", async () => {
    const own = await app.request('POST', '/v1/protocols', { key: w.key, body: { name: 'Needles only', items: [{ productId: w.products.ndl, quantity: 2, sig: 'Use as directed' }] } });
    expect(own.status, own.text).toBe(201);
    const f = await makeFlow({ tenantId: w.tenantId, livemode: false }, { protocolId: own.body.id });
    const r = await run(f);
    const reviewed = await review(r.submissionId);
    expect(reviewed.status, reviewed.text).toBe(200);
    const order = await app.request('GET', `/v1/orders/${reviewed.body.orderId}`, { key: w.key });
    expect(order.body.items.map((i: { productId: string; quantity: number }) => [i.productId, i.quantity])).toEqual([[w.products.ndl, 2]]);
  });
});

describe('conversion postbacks', () => {

  it('an eligible run: one signed POST per URL, ids only', async () => {
    const r = await run(flow);
    const [got] = await waitFor(() => postbacksFor(r.sessionId).length && postbacksFor(r.sessionId), { what: 'the postback' });
    const body = JSON.parse(got.body);
    expect(Object.keys(body).sort()).toEqual(['flowId', 'occurredAt', 'sessionId', 'submissionId', 'type']);
    expect(body).toMatchObject({ type: 'flow.qualified', flowId: flow.flowId, sessionId: r.sessionId, submissionId: r.submissionId });
    expect(Number.isNaN(Date.parse(body.occurredAt))).toBe(false);
    for (const word of PATIENT_WORDS) expect(got.body).not.toContain(word);
    // Verifies with the reference library and the flow's checkout secret.
    expect(new Webhook(SECRET).verify(got.body, got.headers as Record<string, string>)).toEqual(body);
    expect(got.headers['webhook-id']).toMatch(/^job_/);
    expect(got.headers['user-agent']).toBe('FulfillmentRail-Postbacks/1');
  });

  it('a disqualified run sends nothing, even if a job was queued for it', async () => {
    const d = await run(flow, { verdict: 'disqualified' });
    await db().transaction((tx) => enqueueConversionPostbacks(tx, flow.scope, flow.doc, { flowId: flow.flowId, sessionId: d.sessionId, submissionId: d.submissionId }));
    await waitFor(async () => (await db().execute(sql`select 1 from jobs where kind = 'flow.postback'`) as unknown as { rows: unknown[] }).rows.length === 0, { what: 'the queue to drain' });
    expect(postbacksFor(d.sessionId)).toEqual([]);
  });

  it('a failing receiver is retried with the same webhook-id; a flow without a checkout secret sends unsigned', async () => {
    const f = await makeFlow(flow.scope, { conversionPostbacks: [`${receiver.url}/flaky`] });
    const r = await run(f);
    const got = await waitFor(() => postbacksFor(r.sessionId, '/flaky').length >= 3 && postbacksFor(r.sessionId, '/flaky'), { what: 'three attempts' });
    expect(new Set(got.map((x) => x.headers['webhook-id'])).size).toBe(1);
    expect(got[0].headers['webhook-signature']).toBeUndefined();
    expect(got[0].headers['webhook-timestamp']).toMatch(/^\d+$/);
  });

  it('an inside address is never reached (webhook URL rules), and the refusal is logged without the URL or the body', async () => {
    // Plain http to a loopback address other than `localhost`: the receiver would answer if the rules let it through.
    const inside = `http://127.0.0.1:${receiver.port}/inside`;
    const f = await makeFlow(flow.scope, { conversionPostbacks: [inside, `${receiver.url}/pb`] });
    const logs = captureLogs();
    try {
      const r = await run(f);
      await waitFor(() => postbacksFor(r.sessionId).length, { what: 'the allowed postback' });
      await waitFor(async () => ((await db().execute(sql`select 1 from jobs where kind = 'flow.postback'`)) as unknown as { rows: unknown[] }).rows.length === 0, { what: 'the queue to drain' });
      expect(receiver.received.filter((x) => x.path === '/inside')).toEqual([]);
      const given = logs.records().filter((l) => l.msg === 'conversion postback given up');
      expect(given).toHaveLength(1);
      expect(given[0]).toMatchObject({ flowId: f.flowId, err: expect.stringMatching(/https/) });
      expect(logs.text()).not.toContain('127.0.0.1');
      expect(logs.text()).not.toContain(r.submissionId);
    } finally {
      logs.restore();
    }
  });
});

describe('end to end through the public runtime', () => {
  async function submitted(f: Flow) {
    const client = flowClient(app, f.embedKey);
    const sessionId = await client.started();
    await client.answerAll(sessionId, weightRunAnswers());
    const res = await client.submit(sessionId);
    expect(res.status, res.text).toBe(200);
    return { sessionId, body: res.body as Record<string, any> };
  }

  it('submit with the flag: checkoutUrl with a verifying fr_token; the store calls back; the approved order carries the store id; the postback arrived', async () => {
    const { sessionId, body } = await submitted(flow);
    expect(body.verdict).toBe('eligible');
    const token = tokenOf(body.checkoutUrl);
    const { payload } = await jwtVerify(token, Buffer.from(SECRET.slice('whsec_'.length), 'base64'), { algorithms: ['HS256'] });
    expect(payload).toMatchObject({ fid: flow.flowId, sid: sessionId });
    for (const word of [CONTACT.name, CONTACT.email, CONTACT.dateOfBirth]) expect(body.checkoutUrl).not.toContain(encodeURIComponent(word));

    const cb = completed(token, 'shop-e2e-1');
    expect((await callback(flow.flowId, cb)).status).toBe(200);
    expect((await callback(flow.flowId, cb)).status).toBe(200);
    expect(await checkoutEvents(sessionId)).toEqual([{ flowId: flow.flowId, sessionId, externalOrderId: 'shop-e2e-1' }]);

    const [got] = await waitFor(() => postbacksFor(sessionId).length && postbacksFor(sessionId), { what: 'the postback' });
    expect(JSON.parse(got.body)).toMatchObject({ type: 'flow.qualified', flowId: flow.flowId, sessionId, submissionId: body.submissionId });
    for (const word of [CONTACT.name, CONTACT.email, CONTACT.dateOfBirth, 'Lovelace']) expect(got.body).not.toContain(word);

    const reviewed = await review(body.submissionId);
    expect(reviewed.status, reviewed.text).toBe(200);
    const order = await app.request('GET', `/v1/orders/${reviewed.body.orderId}`, { key: w.key });
    expect(order.body).toMatchObject({ source: 'flow', foreignOrderId: 'shop-e2e-1' });
  });

  it('submit without the flag: no checkoutUrl, yet the postback still goes out', async () => {
    await setFeature(w.tenantId, false);
    try {
      const { sessionId, body } = await submitted(flow);
      expect(body.verdict).toBe('eligible');
      expect(body).not.toHaveProperty('checkoutUrl');
      await waitFor(() => postbacksFor(sessionId).length, { what: 'the postback' });
    } finally {
      await setFeature(w.tenantId, true);
    }
  });

  it('a disqualified run: no checkoutUrl and no postback', async () => {
    const client = flowClient(app, flow.embedKey);
    const sessionId = await client.started();
    await client.answerAll(sessionId, weightRunAnswers({ history: { pregnant: true, takesMeds: false } }));
    const res = await client.submit(sessionId);
    expect(res.status, res.text).toBe(200);
    expect(res.body.verdict).toBe('disqualified');
    expect(res.body).not.toHaveProperty('checkoutUrl');
    const jobs = (await db().execute(sql`select count(*)::int as n from jobs where kind = 'flow.postback' and payload->>'sessionId' = ${sessionId}`)) as unknown as { rows: { n: number }[] };
    expect(Number(jobs.rows[0].n)).toBe(0);
    // An eligible run of the same flow after it: once its postback is in and the worker has run every postback
    // job of the clinic, one the disqualified run had set going would have been sent as well.
    const later = await submitted(flow);
    await waitFor(() => postbacksFor(later.sessionId).length, { what: 'the postback of the eligible run after it' });
    await jobsDone(app, { tenantId: w.tenantId, kind: 'flow.postback' });
    expect(postbacksFor(sessionId)).toEqual([]);
  });
});

describe('end to end with a flow authored over the API', () => {
  it('published with a checkout and a postback; a secret rotated by re-publishing keeps earlier links good, callbacks sign with the new one', async () => {
    const document = weightFlowDocument(KEY, { checkout: { storeUrl: STORE, secret: SECRET }, conversionPostbacks: [`${receiver.url}/authored`] });
    const made = await app.request('POST', '/v1/flows', { key: w.key, body: { name: 'Authored', document } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.draft.settings.checkout).toEqual({ storeUrl: STORE, secretLast4: SECRET.slice(-4) });
    const pub = await app.request('POST', `/v1/flows/${made.body.id}/publish`, { key: w.key, body: {} });
    const ok = await app.request('POST', `/v1/flows/${made.body.id}/approve`, { key: w.provider.token, body: { versionId: pub.body.version.id } });
    expect(ok.status, ok.text).toBe(200);
    const key = await app.request('POST', '/v1/embed-keys', { key: w.key, body: { allowedOrigins: [], flowId: made.body.id } });
    expect(key.status, key.text).toBe(201);

    const client = flowClient(app, key.body.id);
    const sessionId = await client.started();
    await client.answerAll(sessionId, weightRunAnswers());
    const res = await client.submit(sessionId);
    expect(res.body.verdict, res.text).toBe('eligible');
    const token = tokenOf(res.body.checkoutUrl);
    const got = await waitFor(() => receiver.received.find((x) => x.path === '/authored' && JSON.parse(x.body).sessionId === sessionId), { what: 'the postback' });
    expect(new Webhook(SECRET).verify(got.body, got.headers as Record<string, string>)).toMatchObject({ type: 'flow.qualified', sessionId });

    // The clinic rotates the secret: same clinical plane, so it publishes at once.
    const rotated = `whsec_${randomBytes(32).toString('base64')}`;
    const edit = await app.request('PATCH', `/v1/flows/${made.body.id}`, { key: w.key, body: { document: weightFlowDocument(KEY, { checkout: { storeUrl: STORE, secret: rotated } }) } });
    expect(edit.status, edit.text).toBe(200);
    const again = await app.request('POST', `/v1/flows/${made.body.id}/publish`, { key: w.key, body: {} });
    expect(again.body.status, again.text).toBe('published');

    expectEnvelope(await callback(made.body.id, completed(token, 'shop-rotated')), 401, 'authentication_error', 'invalid_signature');
    const done = await callback(made.body.id, completed(token, 'shop-rotated'), { secret: rotated });
    expect(done.status, done.text).toBe(200);
    expect(await checkoutEvents(sessionId)).toEqual([{ flowId: made.body.id, sessionId, externalOrderId: 'shop-rotated' }]);
  });
});
