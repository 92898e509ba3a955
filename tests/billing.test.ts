import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyPaymentEvent } from '@/server/domain/billing/payment-events';
import { setClock } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';
import { countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, OPS_KEY, type Clinic, type TestApp, startWithTwoClinics } from './helpers/harness';

/*
 * The billing reads and ops' grace extension over HTTP (spec "Billing health", DESIGN decision 29): the exact
 * shapes for a fresh tenant in both modes, billing.manage, tenancy, and extend-grace's refusals. The dunning
 * walk itself is in tests/billing-dunning.test.ts.
 */

let app: TestApp;
let a: Clinic;
let b: Clinic;
beforeAll(async () => ({ app, a, b } = await startWithTwoClinics()));
afterAll(async () => app?.close());
afterEach(() => setClock(null));

const billing = (key: string, headers?: Record<string, string>) => app.request('GET', '/v1/billing', { key, headers });
const health = (key: string, headers?: Record<string, string>) => app.request('GET', '/v1/billing/health', { key, headers });
const extend = (tenantId: string, body: unknown = {}, key = OPS_KEY) =>
  app.request('POST', `/v1/ops/tenants/${tenantId}/billing/extend-grace`, { key, body });

const FRESH_HEALTH = { stage: 'healthy', decision: 'ROUTE', amountDueCents: 0, nextActionAt: null, attemptCount: 0, graceExtended: false };
const CHECKOUT_PLANS = [
  { plan: 'starter', priceCents: 4_900 },
  { plan: 'growth', priceCents: 19_900 },
  { plan: 'scale', priceCents: 59_900 },
];
const freshBilling = (livemode: boolean) => ({
  object: 'billing',
  livemode,
  plan: 'free',
  priceCents: 0,
  currency: 'usd',
  provider: 'simulated',
  status: 'none',
  period: null,
  cancelAtPeriodEnd: false,
  health: FRESH_HEALTH,
  checkoutPlans: CHECKOUT_PLANS,
  stageHistory: [],
  // The sandbox test clock (decision 35): never moved here; live has none.
  testClock: livemode ? null : { advancedDays: 0 },
});

async function tenantOnPlan(plan: string) {
  const tenant = await app.request('POST', '/v1/ops/tenants', { key: OPS_KEY, body: { name: `On ${plan}`, plan } });
  expect(tenant.status, tenant.text).toBe(201);
  const key = await app.request('POST', `/v1/developer/keys/ops/tenants/${tenant.body.id}`, { key: OPS_KEY, body: { name: 'live', mode: 'live' } });
  const sandbox = await app.request('POST', `/v1/developer/keys/ops/tenants/${tenant.body.id}`, { key: OPS_KEY, body: { name: 'sb', mode: 'sandbox' } });
  return { tenantId: tenant.body.id as string, liveKey: key.body.key as string, sandboxKey: sandbox.body.key as string };
}

describe('GET /v1/billing and /v1/billing/health', () => {
  it('shows a fresh tenant exactly the spec fields, in both modes, without writing an account', async () => {
    const before = await countRows(app, 'billing_accounts');
    for (const [key, livemode] of [[a.liveKey, true], [a.sandboxKey, false]] as const) {
      const h = await health(key);
      expect(h.status, h.text).toBe(200);
      expect(h.body).toStrictEqual(FRESH_HEALTH);
      const res = await billing(key);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toStrictEqual(freshBilling(livemode));
    }
    expect(await countRows(app, 'billing_accounts')).toBe(before);
  });

  it("shows the live plan ops set on the tenant (enterprise: quoted price), while sandbox keeps its own account's plan", async () => {
    const t = await tenantOnPlan('enterprise');
    const live = await billing(t.liveKey);
    expect(live.body).toMatchObject({ livemode: true, plan: 'enterprise', priceCents: null, provider: 'simulated', status: 'none' });
    const sandbox = await billing(t.sandboxKey);
    expect(sandbox.body).toMatchObject({ livemode: false, plan: 'free', priceCents: 0 });
  });

  it('shows a paid plan, its price and period after a checkout, in that mode only', async () => {
    const t = await createTenantWithKeys(app, 'Paid');
    const periodStart = new Date('2031-03-01T10:00:00.000Z');
    const periodEnd = new Date('2031-04-01T10:00:00.000Z');
    await applyPaymentEvent(app.services.database.db, {
      provider: 'simulated',
      eventId: `test_checkout_${t.tenantId}`,
      scope: { tenantId: t.tenantId, livemode: true },
      event: { type: 'checkout.completed', plan: 'growth', customerId: null, subscriptionId: null, periodStart, periodEnd },
    });
    const live = await billing(t.liveKey);
    expect(live.body).toStrictEqual({
      ...freshBilling(true),
      plan: 'growth',
      priceCents: 19_900,
      status: 'active',
      period: { start: periodStart.toISOString(), end: periodEnd.toISOString() },
      health: { ...FRESH_HEALTH, nextActionAt: periodEnd.toISOString() },
    });
    expect((await billing(t.sandboxKey)).body).toStrictEqual(freshBilling(false));
  });

  it('is readable by owners and admins, refused without billing.manage (restricted key, developer session)', async () => {
    const owner = await createUserAndLogin(app, a.tenantId, { email: 'owner@billing-a.test', role: 'owner' });
    const admin = await createUserAndLogin(app, a.tenantId, { email: 'admin@billing-a.test', role: 'admin' });
    for (const token of [owner.token, admin.token]) {
      expect((await billing(token)).status).toBe(200);
      expect((await health(token)).status).toBe(200);
    }
    const restricted = await app.request('POST', '/v1/developer/keys', {
      key: a.liveKey,
      body: { name: 'No billing', mode: 'live', keyType: 'restricted', scopes: ['orders.read', 'usage.read'] },
    });
    expect(restricted.status, restricted.text).toBe(201);
    const dev = await createUserAndLogin(app, a.tenantId, { email: 'dev@billing-a.test', role: 'developer' });
    for (const key of [restricted.body.key as string, dev.token]) {
      expectEnvelope(await billing(key), 403, 'permission_error', 'missing_scope');
      expectEnvelope(await health(key), 403, 'permission_error', 'missing_scope');
    }
    expectEnvelope(await billing(OPS_KEY), 403, 'permission_error');
    expectEnvelope(await app.request('GET', '/v1/billing'), 401, 'authentication_error');
  });

  it("never shows another tenant's billing: each key reads its own tenant and mode", async () => {
    const db = app.services.database.db;
    await applyPaymentEvent(db, {
      provider: 'simulated',
      eventId: `test_fail_${a.tenantId}`,
      scope: { tenantId: a.tenantId, livemode: true },
      event: { type: 'payment.failed', amountDueCents: 4_900, attemptCount: 1 },
    });
    const mine = await health(a.liveKey);
    expect(mine.body).toMatchObject({ stage: 'grace', amountDueCents: 4_900, attemptCount: 1 });
    expect((await billing(a.liveKey)).body.stageHistory).toMatchObject([{ from: 'healthy', to: 'grace', cause: 'payment_failed' }]);
    expect((await health(b.liveKey)).body).toStrictEqual(FRESH_HEALTH);
    expect((await billing(b.liveKey)).body).toStrictEqual(freshBilling(true));
    expect((await health(a.sandboxKey)).body).toStrictEqual(FRESH_HEALTH);
  });
});

describe('POST /v1/ops/tenants/{tenantId}/billing/extend-grace', () => {
  it('extends once per account (200, then 409 grace_already_extended), live by default, sandbox on its own', async () => {
    const t = await createTenantWithKeys(app, 'Extend once');
    const first = await extend(t.tenantId);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toStrictEqual({ ...FRESH_HEALTH, graceExtended: true });
    expect((await health(t.liveKey)).body.graceExtended).toBe(true);
    expect((await health(t.sandboxKey)).body.graceExtended).toBe(false);

    const changes = await countRows(app, 'billing_stage_changes');
    expectEnvelope(await extend(t.tenantId, { mode: 'live' }), 409, 'conflict', 'grace_already_extended');
    expect(await countRows(app, 'billing_stage_changes')).toBe(changes);

    const sandbox = await extend(t.tenantId, { mode: 'sandbox' });
    expect(sandbox.status, sandbox.text).toBe(200);
    expect((await health(t.sandboxKey)).body.graceExtended).toBe(true);
    expectEnvelope(await extend(t.tenantId, { mode: 'sandbox' }), 409, 'conflict', 'grace_already_extended');
  });

  it('answers 404 for an unknown tenant and writes nothing', async () => {
    const before = await countRows(app, 'billing_accounts');
    expectEnvelope(await extend(newId('tenant')), 404, 'not_found');
    expectEnvelope(await extend('ten_nope'), 404, 'not_found');
    expect(await countRows(app, 'billing_accounts')).toBe(before);
  });

  it('is for platform operators only: a tenant key or an owner session gets 403', async () => {
    const t = await createTenantWithKeys(app, 'Not ops');
    const owner = await createUserAndLogin(app, t.tenantId, { email: 'owner@not-ops.test', role: 'owner' });
    for (const key of [t.liveKey, t.sandboxKey, owner.token]) expectEnvelope(await extend(t.tenantId, {}, key), 403, 'permission_error', 'ops_only');
    expect((await health(t.liveKey)).body.graceExtended).toBe(false);
  });

  it('refuses a bad body with a 400 naming the field, and writes nothing', async () => {
    const t = await createTenantWithKeys(app, 'Bad body');
    const before = { accounts: await countRows(app, 'billing_accounts'), changes: await countRows(app, 'billing_stage_changes') };
    const bad = await extend(t.tenantId, { mode: 'test' });
    expectEnvelope(bad, 400, 'validation_error');
    expect(bad.body.error.param).toBe('mode');
    const extra = await extend(t.tenantId, { mode: 'live', days: 30 });
    expectEnvelope(extra, 400, 'validation_error');
    expect(extra.body.error.param).toBe('days');
    expect({ accounts: await countRows(app, 'billing_accounts'), changes: await countRows(app, 'billing_stage_changes') }).toEqual(before);
    expect((await health(t.liveKey)).body.graceExtended).toBe(false);
  });
});
