import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { billingAccounts, tenants, type DunningStage } from '@/db/schema';
import { applyPaymentEvent, type PaymentEvent } from '@/server/domain/billing/payment-events';
import { setClock } from '@/server/lib/clock';
import { catalogWorld } from './helpers/catalog-world';
import { query, sendCallback } from './helpers/dispatch';
import { flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { countRows, expectEnvelope, startTestApp, type ApiResponse, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';
import { ordersWorld } from './helpers/orders-world';
import { REFUSED_BY_STAGE, type GuardedAction, type TryAction } from './helpers/billing-stages';

/*
 * DESIGN decision 29 where it bites (issue 25, item 5): one live clinic walked through every dunning stage —
 * healthy, grace (day 1), warning (day 4), restricted (day 7.5), suspended (day 15), then recovered — and at
 * each stage every guarded action is tried over HTTP: allowed, or refused with the stage's code and nothing
 * written. Reads, cancel, reroute, re-submit and pharmacy callbacks work throughout, and an order dispatched
 * while healthy reaches `delivered` after suspension. The stage is never moved by a worker here: enforcement
 * reads the dunning clock (`effectiveStage`), so moving the clock is enough.
 */

type World = Awaited<ReturnType<typeof ordersWorld>>;
type Rule = GuardedAction;

const DAY = 86_400_000;
const KEY = 'weight';
const ORIGIN = 'https://clinic.example';

let app: TestApp;
let w: World;
let flow: Awaited<ReturnType<typeof publishedFlow>>;
let sandboxFlow: Awaited<ReturnType<typeof publishedFlow>>;
let sandboxProduct: string;
let sandboxPatient: string;
let refreshToken: string;
let providerToken: string;
let eventSeq = 0;
/** Orders waiting for approval, made while nothing was refused (order creation is refused once suspended). */
const pending: string[] = [];
/** Orders a provider approved whose pharmacy rejected them: the reroute and re-submit cases. */
const rejected: string[] = [];
/** Approved and dispatched while healthy; its pharmacy reports one step per stage, delivered once suspended. */
let inflight: string;

afterEach(() => setClock(null));

/** The clock `days` after the first failed payment (which is applied at real time); it keeps running. */
const atDay = (days: number) => setClock(() => new Date(Date.now() + days * DAY));

const pay = (event: PaymentEvent, livemode = true) =>
  applyPaymentEvent(app.services.database.db, { provider: 'simulated', eventId: `evt_test_${++eventSeq}`, scope: { tenantId: w.tenantId, livemode }, event });

/** The provider's access token at the current clock (a 15-minute token does not survive a jump of days). */
async function provider(): Promise<string> {
  const res = await app.request('POST', '/v1/auth/refresh', { body: { refreshToken } });
  if (res.status !== 200) throw new Error(`refresh: ${res.status} ${res.text}`);
  refreshToken = res.body.refreshToken;
  providerToken = res.body.accessToken;
  return providerToken;
}

const live = { 'x-mode': 'live' };
const ok = (res: ApiResponse, status: number) => expect(res.status, res.text).toBe(status);

async function newSubmission(): Promise<string> {
  const res = await app.request('POST', '/v1/intake/submissions', { key: w.liveKey, body: { questionnaireKey: KEY, patientId: w.patients.ca, answers: eligibleAnswers() } });
  ok(res, 201);
  expect(res.body.status).toBe('pending_review');
  return res.body.id;
}

async function approvedAndDispatched(): Promise<string> {
  const created = await w.create();
  ok(created, 201);
  const approved = await w.approve(created.body.id, providerToken);
  ok(approved, 201);
  expect(approved.body.status).toBe('submitted');
  return created.body.id;
}

/** The pharmacy the order's newest dispatch went to reports `status` for it, signed as pharmacies sign. */
async function pharmacySays(orderId: string, status: string, extra: Record<string, unknown> = {}) {
  const [d] = await query<{ idempotency_key: string; connection_id: string }>(
    app,
    sql`select idempotency_key, connection_id from order_dispatches where order_id = ${orderId} order by round desc limit 1`,
  );
  const secret = d.connection_id === w.pharmacies.alpha ? w.pharmacies.alphaSecret : w.pharmacies.betaSecret;
  const res = await sendCallback(app, d.connection_id, secret, { idempotencyKey: d.idempotency_key, status, ...extra });
  ok(res, 200);
  expect(res.body.outcome).toBe('applied');
}

const statusOf = async (id: string) => (await w.get(id)).body.status as string;

/** Every table a guarded action could write. */
const TABLES = ['flows', 'questionnaires', 'experiments', 'orders', 'order_transitions', 'order_dispatches', 'flow_sessions', 'events', 'intake_submissions where status <> \'pending_review\''];
const written = async () => Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await countRows(app, t)] as const)));

/** Each guarded action, tried once; a success is cleaned up so the next stage can try again. */
const RULES: Record<Rule, TryAction> = {
  async aiFlow() {
    const res = await app.request('POST', '/v1/flows/ai/generate', { key: w.liveKey, body: { description: 'A weight management funnel for busy parents' } });
    return { res, created: 201 };
  },
  async aiDraft() {
    const res = await app.request('POST', '/v1/intake/questionnaires/ai-draft', { key: w.liveKey, body: { description: 'A weight management intake with BMI and pregnancy checks' } });
    return { res, created: 201 };
  },
  async experiment() {
    const res = await app.request('POST', `/v1/flows/${flow.flowId}/experiments`, { key: w.liveKey, body: { name: 'Billing walk', splitPct: 50, overrides: [] } });
    if (res.status === 201) ok(await app.request('POST', `/v1/flows/experiments/${res.body.id}/stop`, { key: w.liveKey, body: {} }), 200);
    return { res, created: 201 };
  },
  async approve() {
    const id = pending.pop()!;
    const res = await w.approve(id, providerToken);
    if (res.status !== 201) pending.push(id);
    return { res, created: 201 };
  },
  async reviewApprove() {
    const id = await newSubmission();
    const res = await app.request('POST', `/v1/intake/submissions/${id}/review`, { key: providerToken, headers: live, body: { decision: 'approve' } });
    if (res.status !== 200) {
      // A reject is never refused: the submission leaves the queue either way.
      ok(await app.request('POST', `/v1/intake/submissions/${id}/review`, { key: providerToken, headers: live, body: { decision: 'reject', note: 'Billing walk' } }), 200);
    }
    return { res, created: 200 };
  },
  async session() {
    const res = await flowClient(app, flow.embedKey, ORIGIN).start();
    return { res, created: 201 };
  },
  async orderCreate() {
    const res = await w.create();
    if (res.status === 201) pending.push(res.body.id);
    return { res, created: 201 };
  },
};

const ALL_RULES = Object.keys(RULES) as Rule[];
const EXPECTED = REFUSED_BY_STAGE;

/** Tries every guarded action: allowed ones succeed, refused ones answer 403 with the code and write nothing. */
async function checkEveryRule(stage: DunningStage) {
  await provider();
  for (const rule of ALL_RULES) {
    const code = EXPECTED[stage][rule];
    const before = code ? await written() : null;
    const { res, created } = await RULES[rule]();
    if (!code) {
      expect(res.status, `${stage} ${rule}: ${res.text}`).toBe(created);
      continue;
    }
    if (rule === 'session') {
      // A patient on the clinic's funnel is not told about the clinic's payments (decision 35): one generic code.
      expectEnvelope(res, 403, 'permission_error', 'flow_unavailable');
      expect(res.body.error.message).not.toMatch(/billing|payment|overdue|invoice|stage|suspend|restrict/i);
    } else {
      expectEnvelope(res, 403, 'permission_error', code);
      expect(res.body.error.message).toContain(stage);
    }
    // reviewApprove made its submission (never refused) and rejected it after the refusal: only that moved.
    const after = await written();
    if (rule === 'reviewApprove') {
      expect(after).toEqual({ ...before, "intake_submissions where status <> 'pending_review'": before!["intake_submissions where status <> 'pending_review'"] + 1, events: after.events });
      expect(await countRows(app, `orders where tenant_id = '${w.tenantId}'`)).toBe(before!.orders);
    } else {
      expect(after, `${stage} ${rule} wrote something`).toEqual(before);
    }
  }
}

/** Reads, exports and in-flight work: never refused. */
async function checkAlwaysOpen(stage: DunningStage) {
  for (const path of ['/v1/orders', '/v1/developer/events', '/v1/patients', '/v1/developer/usage', '/v1/orders/reconciliation', `/v1/flows/${flow.flowId}/experiments`]) {
    ok(await app.request('GET', path, { key: w.liveKey }), 200);
  }
  ok(await app.request('GET', `/v1/public/flows/${flow.embedKey}`, { headers: { origin: ORIGIN } }), 200);
  // Cancel an order that waits for approval.
  const cancelled = await w.act(pending.shift()!, 'cancel');
  expect(cancelled.status, `${stage} cancel: ${cancelled.text}`).toBe(201);
  expect(cancelled.body.status).toBe('cancelled');
}

beforeAll(async () => {
  app = await startTestApp({ ORDER_SYNC_INTERVAL_MS: '60000' });
  w = await ordersWorld(app, 'Billing walk', { mode: 'live' });
  refreshToken = w.provider.refreshToken;
  providerToken = w.provider.token;
  const protocol = await app.request('POST', '/v1/protocols', { key: w.liveKey, body: { name: 'GLP-1 start', items: [{ productId: w.products.glp, quantity: 1, sig: 'Inject 0.25 mg weekly' }] } });
  ok(protocol, 201);
  const questionnaire = await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: true }, weightDocument(KEY, protocol.body.id));
  flow = await publishedFlow(app, { tenantId: w.tenantId, livemode: true }, questionnaire, weightFlowDocument(KEY), { allowedOrigins: [ORIGIN] });
  await app.services.database.db.update(tenants).set({ features: { flow_ai_freeform_medical: true } }).where(eq(tenants.id, w.tenantId));

  // The same tenant's sandbox: a flow, a product and a patient of its own.
  const sandboxQuestionnaire = await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: false }, weightDocument(KEY));
  sandboxFlow = await publishedFlow(app, { tenantId: w.tenantId, livemode: false }, sandboxQuestionnaire, weightFlowDocument(KEY), { allowedOrigins: [ORIGIN] });
  sandboxProduct = (await catalogWorld(app, w.sandboxKey).product('SBX')).id;
  const patient = await app.request('POST', '/v1/patients', {
    key: w.sandboxKey,
    body: { firstName: 'Sam', lastName: 'Sandbox', dateOfBirth: '1980-01-01', sex: 'female', address: { line1: '1 Main St', city: 'Town', state: 'CA', postalCode: '90001' } },
  });
  ok(patient, 201);
  sandboxPatient = patient.body.id;

  // The clinic pays for growth: its cap is far above what this walk orders.
  expect(await pay({ type: 'checkout.completed', plan: 'growth', customerId: 'cus_walk', subscriptionId: 'sub_walk', periodStart: new Date(), periodEnd: new Date(Date.now() + 30 * DAY) })).toBe(true);
  for (let i = 0; i < 12; i++) {
    const res = await w.create();
    ok(res, 201);
    pending.push(res.body.id);
  }
  inflight = await approvedAndDispatched();
  for (let i = 0; i < 2; i++) {
    const id = await approvedAndDispatched();
    await pharmacySays(id, 'rejected', { reasonCode: 'license_hold' });
    rejected.push(id);
  }
});
afterAll(async () => {
  await app?.close();
});

describe('one live clinic through every dunning stage (decision 29)', () => {
  it('healthy: nothing is refused', async () => {
    await checkEveryRule('healthy');
    await checkAlwaysOpen('healthy');
  });

  it('grace (day 1 after a failed payment): still nothing is refused', async () => {
    expect(await pay({ type: 'payment.failed', amountDueCents: 19900 })).toBe(true);
    atDay(1);
    await checkEveryRule('grace');
    await checkAlwaysOpen('grace');
  });

  it('warning (day 4): AI generation and new experiments refused with billing_degraded; orders route', async () => {
    atDay(4);
    await checkEveryRule('warning');
    await checkAlwaysOpen('warning');
    await pharmacySays(inflight, 'accepted');
  });

  let carried: string;
  it('a patient starts a session late in warning (day 6.9)…', async () => {
    atDay(6.9);
    const c = flowClient(app, flow.embedKey, ORIGIN);
    carried = await c.started();
    await c.answerAll(carried, weightRunAnswers().slice(0, 3));
  });

  it('restricted (day 7.5): new approvals and new sessions refused with billing_restricted; a started session finishes', async () => {
    atDay(7.5);
    await checkEveryRule('restricted');
    await checkAlwaysOpen('restricted');

    const c = flowClient(app, flow.embedKey, ORIGIN);
    ok(await c.session(carried), 200);
    await c.answerAll(carried, weightRunAnswers().slice(3));
    const submitted = await c.submit(carried);
    ok(submitted, 200);
    expect(submitted.body).toMatchObject({ verdict: 'eligible', submissionId: expect.any(String) });

    // A reject of a submission is never refused.
    const id = await newSubmission();
    const rejectedReview = await app.request('POST', `/v1/intake/submissions/${id}/review`, { key: providerToken, headers: live, body: { decision: 'reject', note: 'Not now' } });
    ok(rejectedReview, 200);
    expect(rejectedReview.body.status).toBe('rejected');

    // A reroute of an order a provider approved before is not a new approval; neither is its re-submit.
    const order = rejected.pop()!;
    const rerouted = await w.act(order, 'reroute');
    ok(rerouted, 201);
    expect(rerouted.body.rerouted).toBe(true);
    const resubmitted = await w.act(order, 'submit');
    ok(resubmitted, 201);
    expect(resubmitted.body.status).toBe('submitted');

    await pharmacySays(inflight, 'shipped', { tracking: { carrier: 'UPS', number: '1Z999AA10123456784', url: null }, estimatedDelivery: '2031-01-15' });
  });

  it('suspended (day 15): order creation refused too; reads, cancel, reroute and an order already dispatched reach their end', async () => {
    atDay(15);
    await checkEveryRule('suspended');
    await checkAlwaysOpen('suspended');

    const order = rejected.pop()!;
    ok(await w.act(order, 'reroute'), 201);
    const resubmitted = await w.act(order, 'submit');
    ok(resubmitted, 201);
    expect(resubmitted.body.status).toBe('submitted');

    // The prescription already on its way is never abandoned.
    expect(await statusOf(inflight)).toBe('shipped');
    await pharmacySays(inflight, 'delivered');
    expect(await statusOf(inflight)).toBe('delivered');
    const [delivered] = await query<{ n: number }>(app, sql`select count(*)::int as n from events where type = 'order.delivered' and data->>'orderId' = ${inflight}`);
    expect(Number(delivered.n)).toBe(1);
  });

  it('suspended live does not touch the same tenant’s sandbox', async () => {
    atDay(15);
    await provider();
    const order = await app.request('POST', '/v1/orders', { key: w.sandboxKey, body: { items: [{ productId: sandboxProduct, quantity: 1, sig: 'Take one daily' }], patientId: sandboxPatient } });
    ok(order, 201);
    ok(await flowClient(app, sandboxFlow.embedKey, ORIGIN).start(), 201);
    const experiment = await app.request('POST', `/v1/flows/${sandboxFlow.flowId}/experiments`, { key: w.sandboxKey, body: { name: 'Sandbox test', splitPct: 50, overrides: [] } });
    ok(experiment, 201);
    ok(await app.request('POST', '/v1/flows/ai/generate', { key: w.sandboxKey, body: { description: 'A weight management funnel' } }), 201);
    // The live stage is unchanged by any of it.
    expectEnvelope(await w.create(), 403, 'permission_error', 'billing_suspended');
  });

  it('recovery (the overdue invoice paid): everything is allowed again', async () => {
    atDay(15);
    expect(await pay({ type: 'payment.succeeded' })).toBe(true);
    await checkEveryRule('recovered');
    await checkAlwaysOpen('recovered');
  });

  it('the sandbox account rehearses dunning on its own: sandbox suspended, live untouched', async () => {
    expect(await pay({ type: 'payment.failed', amountDueCents: 4900 }, false)).toBe(true);
    atDay(15);
    const before = await countRows(app, 'orders');
    expectEnvelope(
      await app.request('POST', '/v1/orders', { key: w.sandboxKey, body: { items: [{ productId: sandboxProduct, quantity: 1, sig: 'Take one daily' }], patientId: sandboxPatient } }),
      403,
      'permission_error',
      'billing_suspended',
    );
    expect(await countRows(app, 'orders')).toBe(before);
    const refused = await flowClient(app, sandboxFlow.embedKey, ORIGIN).start();
    expectEnvelope(refused, 403, 'permission_error', 'flow_unavailable');
    ok(await w.create(), 201);
    ok(await flowClient(app, flow.embedKey, ORIGIN).start(), 201);
  });

  it('a grace extension moves every later step by 7 days, for order creation (judged inside the insert) as for the rest', async () => {
    await app.services.database.db.update(billingAccounts).set({ graceExtended: true }).where(and(eq(billingAccounts.tenantId, w.tenantId), eq(billingAccounts.livemode, false)));
    app.services.servingKeys.invalidate(); // a write behind the domain's back: it announces nothing
    const sandboxOrder = () =>
      app.request('POST', '/v1/orders', { key: w.sandboxKey, body: { items: [{ productId: sandboxProduct, quantity: 1, sig: 'Take one daily' }], patientId: sandboxPatient } });
    atDay(15);
    ok(await sandboxOrder(), 201);
    expectEnvelope(await flowClient(app, sandboxFlow.embedKey, ORIGIN).start(), 403, 'permission_error', 'flow_unavailable');
    atDay(21.5);
    expectEnvelope(await sandboxOrder(), 403, 'permission_error', 'billing_suspended');
  });
});
