import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listStageChanges, readAccount } from '@/server/domain/billing/accounts';
import { applyPaymentEvent } from '@/server/domain/billing/payment-events';
import { countRows, createTenantWithKeys, expectEnvelope, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { signStripeWebhook, startFakeStripe, stripeEventPayload, type FakeStripe } from './helpers/fake-stripe';
import { captureLogs } from './helpers/logs';
import { setClock } from '@/server/lib/clock';

/*
 * Issue 34, items 6 and 8: Stripe configured but unreachable answers 503 with Retry-After (never a 500) and logs
 * the failure without secrets; a Stripe-Signature timestamp more than five minutes from our clock, in either
 * direction, is refused, and a replayed event stays applied once.
 */

const SECRET_KEY = 'sk_test_upstream_secret_0123456789';
const WEBHOOK_SECRET = 'whsec_test_upstream_0123456789abcdef';
const PRICES = { STRIPE_PRICE_STARTER: 'price_starter_1', STRIPE_PRICE_GROWTH: 'price_growth_1', STRIPE_PRICE_SCALE: 'price_scale_1' };
const stripeEnv = (url: string) => ({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, ...PRICES, STRIPE_API_URL: url });

/** A local port nothing listens on: every connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('Stripe configured but unreachable (item 6)', () => {
  let app: TestApp;
  let c: Clinic;
  beforeAll(async () => {
    app = await startTestApp(stripeEnv(`http://127.0.0.1:${await closedPort()}`));
    c = await createTenantWithKeys(app, 'Unreachable Clinic');
  });
  afterAll(async () => app?.close());

  const written = async () => ({ accounts: await countRows(app, 'billing_accounts'), sessions: await countRows(app, 'billing_sessions'), events: await countRows(app, 'billing_provider_events') });

  async function expectUnavailable(path: string, body: Record<string, unknown>) {
    const before = await written();
    const logs = captureLogs();
    let res;
    try {
      res = await app.request('POST', path, { key: c.liveKey, body });
    } finally {
      logs.restore();
    }
    expectEnvelope(res, 503, 'service_unavailable', 'payment_provider_unavailable');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.body.error.message).toMatch(/payment provider could not be reached.*try again/i);
    expect(await written()).toEqual(before);
    // The operators learn what failed, and nothing secret is written down.
    const failure = logs.records().find((r) => r.msg === 'payment provider request failed');
    expect(failure).toMatchObject({ provider: 'stripe', transient: true, networkCode: 'ECONNREFUSED' });
    // Issue 49, item 4: an outage answered 503 by design is one warning, never also an error with a stack.
    const levels = logs.records().map((r) => r.level as number);
    expect(levels.filter((l) => l === 40)).toHaveLength(1);
    expect(levels.filter((l) => l >= 50)).toEqual([]);
    expect(logs.text()).not.toContain('"stack"');
    expect(logs.records().find((r) => r.msg === 'request answered with a service failure')).toMatchObject({ status: 503, code: 'payment_provider_unavailable' });
    const text = logs.text();
    for (const secret of [SECRET_KEY, WEBHOOK_SECRET, 'sk_test_', 'whsec_']) expect(text).not.toContain(secret);
  }

  it('POST /v1/billing/checkout answers 503 with Retry-After, writes nothing and logs the failure without secrets', async () => {
    await expectUnavailable('/v1/billing/checkout', { plan: 'growth' });
    await expectUnavailable('/v1/billing/checkout', { plan: 'starter', couponCode: 'WELCOME10' });
  });

  it('POST /v1/billing/portal answers the same for a clinic that has a Stripe customer', async () => {
    // The clinic checked out when Stripe was up: its live account knows its customer.
    await applyPaymentEvent(app.services.database.db, {
      provider: 'stripe',
      eventId: 'evt_upstream_checkout',
      scope: { tenantId: c.tenantId, livemode: true },
      event: { type: 'checkout.completed', plan: 'growth', customerId: 'cus_upstream', subscriptionId: 'sub_upstream', periodStart: new Date(), periodEnd: new Date(Date.now() + 30 * 86_400_000) },
    });
    await expectUnavailable('/v1/billing/portal', {});
  });

  it('sandbox never calls Stripe, so it keeps working', async () => {
    const res = await app.request('POST', '/v1/billing/checkout', { key: c.sandboxKey, body: { plan: 'growth' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.url).toMatch(/\/billing\/simulated\/checkout\/bss_/);
  });
});

describe('Stripe-Signature timestamp tolerance and replays (item 8)', () => {
  let fake: FakeStripe;
  let app: TestApp;
  let c: Clinic;
  beforeAll(async () => {
    fake = await startFakeStripe();
    app = await startTestApp(stripeEnv(fake.url));
    c = await createTenantWithKeys(app, 'Webhook Clinic');
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  const nowS = () => Math.floor(Date.now() / 1000);
  const deliver = (payload: string, timestamp: number) =>
    app.request('POST', '/v1/billing/webhooks/stripe', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signStripeWebhook(payload, WEBHOOK_SECRET, timestamp) } });
  const failed = (attempt: number, id?: string) =>
    stripeEventPayload(
      'invoice.payment_failed',
      { id: `in_tol_${attempt}`, object: 'invoice', customer: 'cus_tol', parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_tol', metadata: { tenantId: c.tenantId, livemode: 'true', plan: 'growth' } } }, amount_due: 19_900, attempt_count: attempt, lines: { object: 'list', data: [] } },
      id,
    );
  const state = async () => {
    const { updatedAt: _u, id: _i, createdAt: _c, ...account } = await readAccount(app.services.database.db, { tenantId: c.tenantId, livemode: true });
    return { account, events: await countRows(app, 'billing_provider_events'), changes: (await listStageChanges(app.services.database.db, { tenantId: c.tenantId, livemode: true })).length };
  };

  it('a correctly signed event stamped an hour (or just over 5 minutes) in the future or the past is refused, and changes nothing', async () => {
    const before = await state();
    // The server's clock held on a whole second: against a moving one, a stamp 301 s ahead taken late in a
    // second is less than 300 s ahead by the time it is checked (a slow machine made that a flake).
    const at = nowS();
    setClock(() => new Date(at * 1000));
    try {
      for (const offset of [3600, 301, -301, -3600, 86_400 * 365]) {
        const res = await deliver(failed(1), at + offset);
        expectEnvelope(res, 400, 'validation_error', 'signature_invalid');
        expect(res.body.error.message).toMatch(/Stripe-Signature/);
      }
    } finally {
      setClock(null);
    }
    expect(await state()).toEqual(before);
  });

  it('inside the tolerance either way it is applied; the same event id delivered again (re-signed) is applied once', async () => {
    const first = await deliver(failed(1, 'evt_tol_future'), nowS() + 240);
    expect(first.status, first.text).toBe(200);
    const once = await state();
    expect(once.account).toMatchObject({ stage: 'grace', attemptCount: 1 });
    // Stripe's retry of the same event, signed again at its own (slightly earlier) clock.
    const replay = await deliver(failed(1, 'evt_tol_future'), nowS() - 240);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true });
    expect(await state()).toEqual(once);

    const second = await deliver(failed(2, 'evt_tol_past'), nowS() - 240);
    expect(second.status).toBe(200);
    expect((await state()).account.attemptCount).toBe(2);
  });
});
