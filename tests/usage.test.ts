import dns from 'node:dns';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { orders } from '@/db/schema';
import { assertUnderOrderCap, countOrdersRouted } from '@/server/domain/billing/usage';
import { PLAN_ORDER_CAPS } from '@/server/domain/billing/plans';
import { currentPeriod } from '@/server/domain/developer/usage-counters';
import { setClock } from '@/server/lib/clock';
import { AppError } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { createTenantWithKeys, createUserAndLogin, expectEnvelope, OPS_KEY, startTestApp, type TestApp } from './helpers/harness';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());
afterEach(() => {
  setClock(null);
  vi.restoreAllMocks();
});

const usage = (key: string, headers?: Record<string, string>) => app.request('GET', '/v1/developer/usage', { key, headers });

/** A tenant on `plan` with a live and a sandbox secret key, minted by ops. */
async function tenantOnPlan(plan: string, name = `Clinic ${plan}`) {
  const tenant = await app.request('POST', '/v1/ops/tenants', { key: OPS_KEY, body: { name, plan } });
  expect(tenant.status).toBe(201);
  const mint = async (mode: 'sandbox' | 'live') => {
    const r = await app.request('POST', `/v1/developer/keys/ops/tenants/${tenant.body.id}`, { key: OPS_KEY, body: { name: mode, mode } });
    expect(r.status).toBe(201);
    return r.body.key as string;
  };
  return { tenantId: tenant.body.id as string, liveKey: await mint('live'), sandboxKey: await mint('sandbox') };
}

/** Writes an order row directly: the orders domain is not needed to exercise the metric. */
async function insertOrder(tenantId: string, livemode: boolean, firstRoutedAt: Date | null) {
  const at = new Date();
  await app.services.database.db.insert(orders).values({
    id: newId('order'),
    tenantId,
    livemode,
    status: firstRoutedAt ? 'submitted' : 'approved',
    source: 'api',
    priority: 'routine',
    items: [],
    amberFields: [],
    firstRoutedAt,
    createdAt: at,
    updatedAt: at,
  });
}

async function insertOrders(n: number, tenantId: string, livemode: boolean, firstRoutedAt: Date | null) {
  for (let i = 0; i < n; i++) await insertOrder(tenantId, livemode, firstRoutedAt);
}

/** Noon on the 15th of the current UTC month: far from either period boundary. */
function midMonth(): Date {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 15, 12));
}

const BASE_KEYS = ['object', 'period', 'plan', 'ordersRouted', 'activeApiKeys', 'enabledWebhookEndpoints', 'eventsThisPeriod'];

describe('GET /developer/usage', () => {
  it('shows a free tenant its cap of 25 and the exact Usage shape', async () => {
    const t = await createTenantWithKeys(app, 'Free clinic');
    const res = await usage(t.liveKey);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...BASE_KEYS, 'orderCapPerMonth', 'ordersRemaining'].sort());
    expect(res.body).toMatchObject({
      object: 'usage',
      plan: 'free',
      ordersRouted: 0,
      orderCapPerMonth: 25,
      ordersRemaining: 25,
      activeApiKeys: 1,
      enabledWebhookEndpoints: 0,
      eventsThisPeriod: 0,
    });
    expect(Object.keys(res.body.period).sort()).toEqual(['end', 'start']);
  });

  it('leaves the cap fields out entirely on an uncapped plan', async () => {
    for (const plan of ['scale', 'enterprise']) {
      const t = await tenantOnPlan(plan);
      const res = await usage(t.liveKey);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual([...BASE_KEYS].sort());
      expect(res.text).not.toContain('orderCapPerMonth');
      expect(res.text).not.toContain('ordersRemaining');
      expect(res.body.plan).toBe(plan);
    }
  });

  it('reports the caps of starter and growth', async () => {
    for (const [plan, cap] of [['starter', 250], ['growth', 2500]] as const) {
      const res = await usage((await tenantOnPlan(plan)).liveKey);
      expect(res.body).toMatchObject({ plan, orderCapPerMonth: cap, ordersRemaining: cap });
    }
    expect(PLAN_ORDER_CAPS).toEqual({ free: 25, starter: 250, growth: 2500, scale: null, enterprise: null });
  });

  it('uses the current UTC calendar month as the period', async () => {
    const t = await createTenantWithKeys(app, 'Period clinic');
    const before = currentPeriod(new Date());
    const res = await usage(t.sandboxKey);
    const after = currentPeriod(new Date());
    expect([before.start.toISOString(), after.start.toISOString()]).toContain(res.body.period.start);
    expect([before.end.toISOString(), after.end.toISOString()]).toContain(res.body.period.end);
    const start = new Date(res.body.period.start);
    const end = new Date(res.body.period.end);
    expect(start.getUTCDate()).toBe(1);
    expect(start.getUTCHours() + start.getUTCMinutes() + start.getUTCSeconds() + start.getUTCMilliseconds()).toBe(0);
    expect(end.getUTCDate()).toBe(1);
    expect((end.getUTCFullYear() * 12 + end.getUTCMonth()) - (start.getUTCFullYear() * 12 + start.getUTCMonth())).toBe(1);

    // A pinned clock moves the period with it.
    setClock(() => new Date('2031-02-10T08:00:00.000Z'));
    const pinned = await usage(t.sandboxKey);
    expect(pinned.body.period).toEqual({ start: '2031-02-01T00:00:00.000Z', end: '2031-03-01T00:00:00.000Z' });
  });

  it('counts active API keys of the caller’s mode: creating adds one, revoking and expiry remove it', async () => {
    const t = await createTenantWithKeys(app, 'Keys clinic');
    expect((await usage(t.liveKey)).body.activeApiKeys).toBe(1);
    expect((await usage(t.sandboxKey)).body.activeApiKeys).toBe(1);

    const made = await app.request('POST', '/v1/developer/keys', { key: t.liveKey, body: { name: 'Extra', mode: 'live' } });
    expect(made.status).toBe(201);
    expect((await usage(t.liveKey)).body.activeApiKeys).toBe(2);
    expect((await usage(t.sandboxKey)).body.activeApiKeys).toBe(1);

    const revoked = await app.request('DELETE', `/v1/developer/keys/${made.body.apiKey.id}`, { key: t.liveKey });
    expect(revoked.status).toBe(200);
    expect((await usage(t.liveKey)).body.activeApiKeys).toBe(1);

    const shortLived = await app.request('POST', '/v1/developer/keys', { key: t.sandboxKey, body: { name: 'Short', expiresInDays: 1 } });
    expect(shortLived.status).toBe(201);
    expect((await usage(t.sandboxKey)).body.activeApiKeys).toBe(2);
    setClock(() => new Date(Date.now() + 2 * 86_400_000));
    expect((await usage(t.sandboxKey)).body.activeApiKeys).toBe(1);
  });

  it('counts enabled webhook endpoints of the caller’s mode', async () => {
    vi.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '93.184.216.34', family: 4 }] as never);
    const t = await createTenantWithKeys(app, 'Hooks clinic');
    const made = await app.request('POST', '/v1/developer/webhooks', { key: t.liveKey, body: { url: 'https://hooks.example.com/x' } });
    expect(made.status).toBe(201);
    expect((await usage(t.liveKey)).body.enabledWebhookEndpoints).toBe(1);
    expect((await usage(t.sandboxKey)).body.enabledWebhookEndpoints).toBe(0);

    const disabled = await app.request('PATCH', `/v1/developer/webhooks/${made.body.id}`, { key: t.liveKey, body: { status: 'disabled' } });
    expect(disabled.status).toBe(200);
    expect((await usage(t.liveKey)).body.enabledWebhookEndpoints).toBe(0);
  });

  it('needs the usage.read scope', async () => {
    const t = await createTenantWithKeys(app, 'Scope clinic');
    const mk = (scopes: string[]) =>
      app.request('POST', '/v1/developer/keys', { key: t.liveKey, body: { name: 'R', mode: 'live', keyType: 'restricted', scopes } });
    const without = await mk(['orders.read']);
    expect(without.status).toBe(201);
    expectEnvelope(await usage(without.body.key), 403, 'permission_error', 'missing_scope');
    const withScope = await mk(['usage.read']);
    expect((await usage(withScope.body.key)).status).toBe(200);
    expectEnvelope(await usage(''), 401, 'authentication_error');
  });

  it('serves a developer’s user session in the mode it names', async () => {
    const t = await createTenantWithKeys(app, 'Session clinic');
    const dev = await createUserAndLogin(app, t.tenantId, { email: 'dev@usage.example', role: 'developer' });
    const res = await usage(dev.token, { 'x-mode': 'live' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'usage', plan: 'free', activeApiKeys: 1, orderCapPerMonth: 25 });
  });

  it('refuses the ops credential, which belongs to no tenant', async () => {
    expectEnvelope(await usage(OPS_KEY), 403, 'permission_error', 'tenant_credential_required');
  });
});

describe('ordersRouted and the order cap', () => {
  it('counts live orders first routed this month only, in either mode, per tenant', async () => {
    setClock(midMonth);
    const t = await createTenantWithKeys(app, 'Routing clinic');
    const other = await createTenantWithKeys(app, 'Other clinic');
    const { start } = currentPeriod(midMonth());
    const lastMonth = new Date(start.getTime() - 86_400_000);

    await insertOrders(3, t.tenantId, true, midMonth()); // counted
    await insertOrder(t.tenantId, true, start); // counted: the period start is inclusive
    await insertOrders(2, t.tenantId, false, midMonth()); // sandbox: unmetered
    await insertOrders(2, t.tenantId, true, lastMonth); // previous period
    await insertOrder(t.tenantId, true, currentPeriod(midMonth()).end); // next period: end is exclusive
    await insertOrder(t.tenantId, true, null); // approved, never routed
    await insertOrders(5, other.tenantId, true, midMonth()); // another tenant

    const live = await usage(t.liveKey);
    expect(live.body).toMatchObject({ ordersRouted: 4, orderCapPerMonth: 25, ordersRemaining: 21 });
    // The billable count is the live count whatever the caller's mode.
    expect((await usage(t.sandboxKey)).body).toMatchObject({ ordersRouted: 4, ordersRemaining: 21 });
    expect(await countOrdersRouted(app.services.database.db, t.tenantId, midMonth())).toBe(4);
    expect(await countOrdersRouted(app.services.database.db, t.tenantId, lastMonth)).toBe(2);
    expect((await usage(other.liveKey)).body.ordersRouted).toBe(5);
  });

  it('takes remaining down to 0 at the cap and never below', async () => {
    setClock(midMonth);
    const t = await createTenantWithKeys(app, 'Busy clinic');
    await insertOrders(24, t.tenantId, true, midMonth());
    expect((await usage(t.liveKey)).body).toMatchObject({ ordersRouted: 24, ordersRemaining: 1 });
    await insertOrder(t.tenantId, true, midMonth());
    expect((await usage(t.liveKey)).body).toMatchObject({ ordersRouted: 25, ordersRemaining: 0 });
    await insertOrders(3, t.tenantId, true, midMonth());
    expect((await usage(t.liveKey)).body).toMatchObject({ ordersRouted: 28, orderCapPerMonth: 25, ordersRemaining: 0 });
  });

  it('assertUnderOrderCap throws 403 order_cap_reached at the cap in live, never in sandbox or on uncapped plans', async () => {
    setClock(midMonth);
    const db = app.services.database.db;
    const free = await createTenantWithKeys(app, 'Capped clinic');
    const live = { tenantId: free.tenantId, livemode: true };
    const sandbox = { tenantId: free.tenantId, livemode: false };

    await insertOrders(24, free.tenantId, true, midMonth());
    await insertOrders(30, free.tenantId, false, midMonth());
    await expect(assertUnderOrderCap(db, live)).resolves.toBeUndefined();

    await insertOrder(free.tenantId, true, midMonth());
    const err = await assertUnderOrderCap(db, live).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ type: 'permission_error', code: 'order_cap_reached', status: 403 });
    const resets = currentPeriod(midMonth()).end.toISOString().slice(0, 10);
    expect((err as AppError).message).toContain("'free'");
    expect((err as AppError).message).toContain('25');
    expect((err as AppError).message).toContain(resets);
    await expect(assertUnderOrderCap(db, sandbox)).resolves.toBeUndefined();

    // Next month the cap resets.
    const nextMonth = new Date(currentPeriod(midMonth()).end.getTime() + 86_400_000);
    await expect(assertUnderOrderCap(db, live, nextMonth)).resolves.toBeUndefined();

    const scale = await tenantOnPlan('scale', 'Uncapped clinic');
    await insertOrders(30, scale.tenantId, true, midMonth());
    await expect(assertUnderOrderCap(db, { tenantId: scale.tenantId, livemode: true })).resolves.toBeUndefined();
    expect((await usage(scale.liveKey)).body.ordersRouted).toBe(30);
  });
});

describe('the Usage schema in the OpenAPI document', () => {
  it('documents every field, with the cap fields optional', async () => {
    const doc = (await app.request('GET', '/v1/openapi.json')).body;
    const schema = doc.components.schemas.Usage;
    expect(Object.keys(schema.properties).sort()).toEqual([...BASE_KEYS, 'orderCapPerMonth', 'ordersRemaining'].sort());
    expect([...schema.required].sort()).toEqual([...BASE_KEYS].sort());
    for (const [name, prop] of Object.entries(schema.properties as Record<string, { description?: string }>)) {
      expect(prop.description, name).toBeTruthy();
    }
    expect(doc.paths['/developer/usage'].get.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/Usage');
  });
});
