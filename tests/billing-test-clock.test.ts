import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DunningStage } from '@/db/schema';
import { flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { query, sendCallback } from './helpers/dispatch';
import { countRows, expectEnvelope, OPS_KEY, startTestApp, type ApiResponse, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';
import { ordersWorld } from './helpers/orders-world';
import { REFUSED_BY_STAGE, type GuardedAction, type TryAction } from './helpers/billing-stages';

/*
 * Issue 34, items 12 and 3: the sandbox billing test clock (DESIGN decision 35). A sandbox clinic checks out with
 * the simulated card that declines renewals, and `POST /v1/billing/test-clock/advance` alone, over HTTP, takes it
 * through grace → warning → restricted → suspended; paying in the simulated portal recovers it, and the next
 * renewal makes it healthy. At each stage every guarded action of decision 29 is tried: allowed, or refused with
 * the stage's code and nothing written; a patient's public session gets only `flow_unavailable`. An order
 * dispatched while healthy reaches `delivered` after suspension. The process clock is never moved here.
 */

type World = Awaited<ReturnType<typeof ordersWorld>>;
type Rule = GuardedAction;

const DAY = 86_400_000;
const KEY = 'weight';
const ORIGIN = 'https://clinic.example';

let app: TestApp;
let w: World;
let flow: Awaited<ReturnType<typeof publishedFlow>>;
/** Orders waiting for approval, made while nothing was refused. */
const pending: string[] = [];
/** Approved and dispatched while healthy; its pharmacy reports one step per stage, delivered once suspended. */
let inflight: string;

const ok = (res: ApiResponse, status: number) => expect(res.status, res.text).toBe(status);
const advance = (days: unknown, key = w.key, idempotencyKey?: string) => app.request('POST', '/v1/billing/test-clock/advance', { key, body: { days }, idempotencyKey });
const billing = async (key = w.key) => {
  const res = await app.request('GET', '/v1/billing', { key });
  ok(res, 200);
  return res.body;
};
/** Whole days from now until the current period ends (the renewal). */
const daysToRenewal = async () => Math.ceil((Date.parse((await billing()).period.end) - Date.now()) / DAY);

/** A browser's form post on the simulated provider's page at `url`: same origin, redirects not followed. */
async function press(url: string, action: string) {
  const path = new URL(url).pathname;
  const res = await fetch(app.baseUrl + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.baseUrl },
    body: new URLSearchParams({ token: path.split('/').pop()!, action }).toString(),
  });
  expect(res.status, await res.text()).toBe(303);
}

async function approvedAndDispatched(): Promise<string> {
  const created = await w.create();
  ok(created, 201);
  const approved = await w.approve(created.body.id);
  ok(approved, 201);
  expect(approved.body.status).toBe('submitted');
  return created.body.id;
}

/** The pharmacy the order went to reports `status` for it, signed as pharmacies sign. */
async function pharmacySays(orderId: string, status: string, extra: Record<string, unknown> = {}) {
  const [d] = await query<{ idempotency_key: string; connection_id: string }>(app, sql`select idempotency_key, connection_id from order_dispatches where order_id = ${orderId} order by round desc limit 1`);
  const secret = d.connection_id === w.pharmacies.alpha ? w.pharmacies.alphaSecret : w.pharmacies.betaSecret;
  const res = await sendCallback(app, d.connection_id, secret, { idempotencyKey: d.idempotency_key, status, ...extra });
  ok(res, 200);
  expect(res.body.outcome).toBe('applied');
}

/** Every table a guarded action could write. */
const TABLES = ['flows', 'questionnaires', 'experiments', 'orders', 'order_transitions', 'order_dispatches', 'flow_sessions', 'events', "intake_submissions where status <> 'pending_review'"];
const written = async () => Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await countRows(app, t)] as const)));

async function newSubmission(): Promise<string> {
  const res = await app.request('POST', '/v1/intake/submissions', { key: w.key, body: { questionnaireKey: KEY, patientId: w.patients.ca, answers: eligibleAnswers() } });
  ok(res, 201);
  return res.body.id;
}

/** Each guarded action, tried once; a success is cleaned up so the next stage can try again. */
const RULES: Record<Rule, TryAction> = {
  aiFlow: async () => ({ res: await app.request('POST', '/v1/flows/ai/generate', { key: w.key, body: { description: 'A weight management funnel for busy parents' } }), created: 201 }),
  aiDraft: async () => ({ res: await app.request('POST', '/v1/intake/questionnaires/ai-draft', { key: w.key, body: { description: 'A weight management intake with BMI and pregnancy checks' } }), created: 201 }),
  async experiment() {
    const res = await app.request('POST', `/v1/flows/${flow.flowId}/experiments`, { key: w.key, body: { name: 'Clock walk', splitPct: 50, overrides: [] } });
    if (res.status === 201) ok(await app.request('POST', `/v1/flows/experiments/${res.body.id}/stop`, { key: w.key, body: {} }), 200);
    return { res, created: 201 };
  },
  async approve() {
    const id = pending.pop()!;
    const res = await w.approve(id);
    if (res.status !== 201) pending.push(id);
    return { res, created: 201 };
  },
  async reviewApprove() {
    const id = await newSubmission();
    const res = await app.request('POST', `/v1/intake/submissions/${id}/review`, { key: w.provider.token, body: { decision: 'approve' } });
    if (res.status !== 200) ok(await app.request('POST', `/v1/intake/submissions/${id}/review`, { key: w.provider.token, body: { decision: 'reject', note: 'Clock walk' } }), 200);
    return { res, created: 200 };
  },
  session: async () => ({ res: await flowClient(app, flow.embedKey, ORIGIN).start(), created: 201 }),
  async orderCreate() {
    const res = await w.create();
    if (res.status === 201) pending.push(res.body.id);
    return { res, created: 201 };
  },
};
const ALL_RULES = Object.keys(RULES) as Rule[];
const EXPECTED = REFUSED_BY_STAGE;

async function checkEveryRule(stage: DunningStage) {
  for (const rule of ALL_RULES) {
    const code = EXPECTED[stage][rule];
    const before = code ? await written() : null;
    const { res, created } = await RULES[rule]();
    if (!code) {
      expect(res.status, `${stage} ${rule}: ${res.text}`).toBe(created);
      continue;
    }
    if (rule === 'session') {
      // Public: the patient is told nothing of the clinic's account (decision 35, item 3).
      expectEnvelope(res, 403, 'permission_error', 'flow_unavailable');
      expect(res.body.error.message).toMatch(/not taking new patients right now/);
      expect(res.text).not.toMatch(/billing|payment|overdue|invoice|suspend|restrict|degrad|stage|dunning/i);
    } else {
      expectEnvelope(res, 403, 'permission_error', code);
      expect(res.body.error.message).toContain(stage);
    }
    const after = await written();
    if (rule === 'reviewApprove') {
      // Only its own submission (never refused) and the reject after the refusal moved.
      const k = "intake_submissions where status <> 'pending_review'";
      expect({ ...after, events: 0 }).toEqual({ ...before, [k]: before![k] + 1, events: 0 });
    } else {
      expect(after, `${stage} ${rule} wrote something`).toEqual(before);
    }
  }
}

/** The stage the sandbox account stands in now, read through the API. */
async function expectStage(res: ApiResponse, stage: DunningStage, extra: Record<string, unknown> = {}) {
  ok(res, 200);
  expect(res.body.health, res.text).toMatchObject({ stage, ...extra });
  expect((await app.request('GET', '/v1/billing/health', { key: w.key })).body).toMatchObject({ stage, ...extra });
}

beforeAll(async () => {
  app = await startTestApp({ ORDER_SYNC_INTERVAL_MS: '60000' });
  w = await ordersWorld(app, 'Clock walk', { mode: 'sandbox' });
  const protocol = await app.request('POST', '/v1/protocols', { key: w.key, body: { name: 'GLP-1 start', items: [{ productId: w.products.glp, quantity: 1, sig: 'Inject 0.25 mg weekly' }] } });
  ok(protocol, 201);
  const questionnaire = await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: false }, weightDocument(KEY, protocol.body.id));
  flow = await publishedFlow(app, { tenantId: w.tenantId, livemode: false }, questionnaire, weightFlowDocument(KEY), { allowedOrigins: [ORIGIN] });
  ok(await app.request('PATCH', `/v1/ops/tenants/${w.tenantId}`, { key: OPS_KEY, body: { features: { flow_ai_freeform_medical: true } } }), 200);
  for (let i = 0; i < 8; i++) {
    const res = await w.create();
    ok(res, 201);
    pending.push(res.body.id);
  }
  inflight = await approvedAndDispatched();
});
afterAll(async () => app?.close());

describe('POST /v1/billing/test-clock/advance: input, mode and permission', () => {
  const state = async () => ({
    accounts: await countRows(app, 'billing_accounts'),
    changes: await countRows(app, 'billing_stage_changes'),
    events: await countRows(app, 'billing_provider_events'),
    keys: await countRows(app, 'idempotency_keys'),
    clock: (await billing()).testClock,
  });

  it.each([
    ['zero', 0],
    ['negative', -3],
    ['a fraction', 1.5],
    ['more than a year', 366],
    ['huge', 1e12],
    ['a string', '3'],
    ['null', null],
    ['not finite', 'Infinity'],
  ])('days %s is a 400 naming days, and nothing is written', async (_label, days) => {
    const before = await state();
    const res = await advance(days, w.key, randomUUID());
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe('days');
    expect(res.body.error.message).toMatch(/^Days must be/);
    expect(await state()).toEqual(before);
  });

  it('a missing days or an unknown field is a 400, nothing written', async () => {
    const before = await state();
    const missing = await app.request('POST', '/v1/billing/test-clock/advance', { key: w.key, body: {} });
    expectEnvelope(missing, 400, 'validation_error', 'parameter_missing');
    expect(missing.body.error.param).toBe('days');
    const extra = await app.request('POST', '/v1/billing/test-clock/advance', { key: w.key, body: { days: 1, frozenTime: 0 } });
    expectEnvelope(extra, 400, 'validation_error', 'unknown_parameter');
    expect(await state()).toEqual(before);
  });

  it('live billing has no clock: 404, nothing written, the live account untouched', async () => {
    const before = await state();
    const liveBefore = await billing(w.liveKey);
    const res = await advance(3, w.liveKey);
    expectEnvelope(res, 404, 'not_found');
    expect(res.body.error.message).toMatch(/sandbox/i);
    expect(await state()).toEqual(before);
    expect(await billing(w.liveKey)).toEqual(liveBefore);
    expect(liveBefore.testClock).toBeNull();
  });

  it('needs billing.manage (403), and a replayed Idempotency-Key moves the clock once', async () => {
    const restricted = await app.request('POST', '/v1/developer/keys', { key: w.key, body: { name: 'orders only', keyType: 'restricted', scopes: ['orders.read'] } });
    ok(restricted, 201);
    const before = await state();
    expectEnvelope(await advance(1, restricted.body.key), 403, 'permission_error');
    expect(await state()).toEqual(before);

    expect(before.clock).toEqual({ advancedDays: 0 });
    const idem = randomUUID();
    const first = await advance(2, w.key, idem);
    await expectStage(first, 'healthy');
    expect(first.body.testClock).toEqual({ advancedDays: 2 });
    const again = await advance(2, w.key, idem);
    ok(again, 200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await billing()).testClock).toEqual({ advancedDays: 2 });
  });
});

describe('a sandbox clinic driven through dunning by the test clock alone (decision 29)', () => {
  it('healthy: checkout offers the card that declines renewals; paying with it changes nothing yet', async () => {
    const checkout = await app.request('POST', '/v1/billing/checkout', { key: w.key, body: { plan: 'starter' } });
    ok(checkout, 200);
    const page = await fetch(app.baseUrl + new URL(checkout.body.url).pathname).then((r) => r.text());
    expect(page).toContain('value="pay_card_declines_renewals"');
    await press(checkout.body.url, 'pay_card_declines_renewals');
    expect(await billing()).toMatchObject({ livemode: false, plan: 'starter', status: 'active', health: { stage: 'healthy', amountDueCents: 0 } });
    await checkEveryRule('healthy');
  });

  it('grace: the renewal at the period end declines (the clock passes it)', async () => {
    const days = await daysToRenewal();
    const res = await advance(days);
    await expectStage(res, 'grace', { decision: 'ROUTE', attemptCount: 1, amountDueCents: 4900 });
    expect(res.body).toMatchObject({ status: 'past_due', testClock: { advancedDays: 2 + days } });
    expect(res.body.stageHistory[0]).toMatchObject({ from: 'healthy', to: 'grace', cause: 'payment_failed' });
    await checkEveryRule('grace');
  });

  let carried: string;
  it('warning (day 3): the retry declines again; AI generation and new experiments refused', async () => {
    await expectStage(await advance(3), 'warning', { decision: 'DEGRADE', attemptCount: 2 });
    await checkEveryRule('warning');
    await pharmacySays(inflight, 'accepted');
    // A patient starts a session before the account is restricted…
    const c = flowClient(app, flow.embedKey, ORIGIN);
    carried = await c.started();
    await c.answerAll(carried, weightRunAnswers().slice(0, 3));
  });

  it('restricted (day 7): new approvals and new sessions refused; a session already started finishes', async () => {
    await expectStage(await advance(4), 'restricted', { decision: 'SOFT_BLOCK', attemptCount: 3 });
    await checkEveryRule('restricted');
    const c = flowClient(app, flow.embedKey, ORIGIN);
    await c.answerAll(carried, weightRunAnswers().slice(3));
    const submitted = await c.submit(carried);
    ok(submitted, 200);
    expect(submitted.body.verdict).toBe('eligible');
    await pharmacySays(inflight, 'shipped', { tracking: { carrier: 'UPS', number: '1Z999AA10123456784', url: null }, estimatedDelivery: '2031-01-15' });
  });

  it('suspended (day 14): order creation refused too; the order dispatched while healthy reaches delivered', async () => {
    const res = await advance(7);
    await expectStage(res, 'suspended', { decision: 'BLOCK', nextActionAt: null });
    expect(res.body.stageHistory.slice(0, 4).map((c: { to: string }) => c.to)).toEqual(['suspended', 'restricted', 'warning', 'grace']);
    await checkEveryRule('suspended');
    expect((await w.get(inflight)).body.status).toBe('shipped');
    await pharmacySays(inflight, 'delivered');
    expect((await w.get(inflight)).body.status).toBe('delivered');
    // Reads keep working.
    for (const path of ['/v1/orders', '/v1/patients', '/v1/developer/events', `/v1/public/flows/${flow.embedKey}`]) ok(await app.request('GET', path, { key: w.key, headers: { origin: ORIGIN } }), 200);
    // The live account never moved.
    expect((await billing(w.liveKey)).health.stage).toBe('healthy');
  });

  it('recovered: paying the overdue invoice in the simulated portal restores everything', async () => {
    const portal = await app.request('POST', '/v1/billing/portal', { key: w.key, body: {} });
    ok(portal, 200);
    await press(portal.body.url, 'pay_overdue');
    await expectStage(await app.request('GET', '/v1/billing', { key: w.key }), 'recovered', { decision: 'ROUTE', amountDueCents: 0, attemptCount: 0 });
    await checkEveryRule('recovered');
  });

  it('healthy again at the next paid renewal (the card was fixed by paying)', async () => {
    const res = await advance(await daysToRenewal());
    await expectStage(res, 'healthy', { amountDueCents: 0 });
    expect(res.body.stageHistory[0]).toMatchObject({ from: 'recovered', to: 'healthy', cause: 'period_paid' });
    expect(res.body.status).toBe('active');
  });
});
