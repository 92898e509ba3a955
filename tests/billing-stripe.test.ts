import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listStageChanges, readAccount } from '@/server/domain/billing/accounts';
import { PaymentsInputError } from '@/server/integrations/payments/port';
import { loadConfig } from '@/server/lib/config';
import { countRows, createTenantWithKeys, expectEnvelope, startTestApp, startWithTwoClinics, type Clinic, type TestApp } from './helpers/harness';
import { signStripeWebhook, startFakeStripe, stripeEventPayload, type FakeStripe } from './helpers/fake-stripe';

const SECRET_KEY = 'sk_test_fake_0123456789';
const WEBHOOK_SECRET = 'whsec_test_fake_0123456789abcdef';
const PRICES = { STRIPE_PRICE_STARTER: 'price_starter_1', STRIPE_PRICE_GROWTH: 'price_growth_1', STRIPE_PRICE_SCALE: 'price_scale_1' };

let fake: FakeStripe;
let app: TestApp;
let a: Clinic;
let b: Clinic;
beforeAll(async () => {
  fake = await startFakeStripe();
  ({ app, a, b } = await startWithTwoClinics({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, ...PRICES, STRIPE_API_URL: fake.url }));
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
});

const payments = () => app.services.payments!;
const live = (tenantId: string) => readAccount(app.services.database.db, { tenantId, livemode: true });
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

function deliver(payload: string, signature: string | null = signStripeWebhook(payload, WEBHOOK_SECRET)) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== null) headers['stripe-signature'] = signature;
  return app.request('POST', '/v1/billing/webhooks/stripe', { rawBody: payload, headers });
}

/** A subscription as GET /v1/subscriptions/:id answers on current API versions: the period on the item. */
function subscription(id: string, tenantId: string, customer: string, price: string, start: string, end: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    object: 'subscription',
    customer,
    status: 'active',
    cancel_at_period_end: false,
    cancel_at: null,
    metadata: { tenantId, livemode: 'true', plan: 'growth' },
    items: { object: 'list', data: [{ id: `si_${id}`, object: 'subscription_item', current_period_start: seconds(start), current_period_end: seconds(end), price: { id: price, object: 'price' } }] },
    ...extra,
  };
}

function checkoutCompleted(tenantId: string, customer: string, sub: string, plan = 'growth') {
  const metadata = { tenantId, livemode: 'true', plan };
  return stripeEventPayload('checkout.session.completed', { id: `cs_${sub}`, object: 'checkout.session', mode: 'subscription', payment_status: 'paid', client_reference_id: tenantId, customer, subscription: sub, metadata });
}

/** An invoice event; `tenantId` null leaves out the subscription metadata snapshot (the customer alone names the tenant). */
function invoiceEvent(type: string, tenantId: string | null, customer: string, extra: Record<string, unknown> = {}) {
  const parent = tenantId ? { type: 'subscription_details', subscription_details: { subscription: 'sub_a', metadata: { tenantId, livemode: 'true', plan: 'growth' } } } : null;
  return stripeEventPayload(type, { id: `in_${Math.random().toString(36).slice(2)}`, object: 'invoice', customer, parent, amount_due: 19_900, attempt_count: 1, lines: { object: 'list', data: [] }, ...extra });
}

async function snapshot(tenantId: string) {
  const { updatedAt: _u, ...account } = await live(tenantId);
  return {
    accounts: await countRows(app, 'billing_accounts'),
    events: await countRows(app, 'billing_provider_events'),
    changes: await countRows(app, 'billing_stage_changes'),
    ownChanges: (await listStageChanges(app.services.database.db, { tenantId, livemode: true })).length,
    account: account.status === 'none' ? { plan: account.plan, stage: account.stage } : account,
  };
}

describe('Stripe Checkout and portal through the official SDK (against the local fake)', () => {
  it('creates the customer, then a subscription-mode session for the plan’s price with our metadata', async () => {
    const res = await payments().createCheckout({ tenantId: a.tenantId, livemode: true, plan: 'growth', customerId: null, successUrl: 'http://app.test/billing?ok=1', cancelUrl: 'http://app.test/billing' });
    const [customer] = fake.seen('/v1/customers');
    expect(customer.params).toEqual({ metadata: { tenantId: a.tenantId, livemode: 'true' } });
    expect(customer.authorization).toBe(`Bearer ${SECRET_KEY}`);
    const [session] = fake.seen('/v1/checkout/sessions');
    const metadata = { tenantId: a.tenantId, livemode: 'true', plan: 'growth' };
    expect(session.params).toMatchObject({
      mode: 'subscription',
      customer: res.customerId,
      client_reference_id: a.tenantId,
      line_items: [{ price: PRICES.STRIPE_PRICE_GROWTH, quantity: '1' }],
      metadata,
      subscription_data: { metadata },
      success_url: 'http://app.test/billing?ok=1',
      cancel_url: 'http://app.test/billing',
    });
    expect(session.params.discounts).toBeUndefined();
    expect(res.url).toMatch(new RegExp(`^${fake.url}/c/pay/cs_test_`));
    expect(res.customerId).toMatch(/^cus_/);
  });

  it('reuses a known customer and applies a coupon as its active promotion code', async () => {
    fake.promotionCodes.set('LAUNCH20', { id: 'promo_launch20', active: true });
    const before = fake.seen('/v1/customers').length;
    await payments().createCheckout({ tenantId: a.tenantId, livemode: true, plan: 'starter', couponCode: 'LAUNCH20', customerId: 'cus_known', successUrl: 'http://app.test/s', cancelUrl: 'http://app.test/c' });
    expect(fake.seen('/v1/customers')).toHaveLength(before);
    expect(fake.seen('/v1/promotion_codes').at(-1)!.params).toEqual({ code: 'LAUNCH20', active: 'true', limit: '1' });
    expect(fake.seen('/v1/checkout/sessions').at(-1)!.params).toMatchObject({ customer: 'cus_known', line_items: [{ price: PRICES.STRIPE_PRICE_STARTER }], discounts: [{ promotion_code: 'promo_launch20' }] });
  });

  it('an unknown or inactive coupon is refused naming couponCode, and nothing is created at Stripe', async () => {
    fake.promotionCodes.set('OLD', { id: 'promo_old', active: false });
    const created = () => fake.seen('/v1/customers').length + fake.seen('/v1/checkout/sessions').length;
    const before = created();
    for (const couponCode of ['NOPE', 'OLD']) {
      const err = await payments()
        .createCheckout({ tenantId: a.tenantId, livemode: true, plan: 'scale', couponCode, customerId: null, successUrl: 'http://app.test/s', cancelUrl: 'http://app.test/c' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PaymentsInputError);
      expect((err as PaymentsInputError).param).toBe('couponCode');
    }
    expect(created()).toBe(before);
  });

  it('opens the customer portal for the customer, returning to the given address', async () => {
    const res = await payments().createPortal({ customerId: 'cus_known', returnUrl: 'http://app.test/billing' });
    expect(fake.seen('/v1/billing_portal/sessions').at(-1)!.params).toEqual({ customer: 'cus_known', return_url: 'http://app.test/billing' });
    expect(res.url).toMatch(new RegExp(`^${fake.url}/p/session/bps_`));
  });
});

describe('POST /v1/billing/checkout and /portal with Stripe configured', () => {
  it('a live checkout goes to Stripe Checkout for the plan’s price, keeps the customer, and applies a valid coupon', async () => {
    fake.promotionCodes.set('WELCOME10', { id: 'promo_welcome10', active: true });
    const d = await createTenantWithKeys(app, 'Clinic D');
    const res = await app.request('POST', '/v1/billing/checkout', { key: d.liveKey, body: { plan: 'scale', couponCode: 'WELCOME10' } });
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(new RegExp(`^${fake.url}/c/pay/cs_test_`));
    const session = fake.seen('/v1/checkout/sessions').at(-1)!.params;
    const customerId = (await live(d.tenantId)).customerId;
    expect(customerId).toMatch(/^cus_/);
    const metadata = { tenantId: d.tenantId, livemode: 'true', plan: 'scale' };
    expect(session).toMatchObject({ mode: 'subscription', customer: customerId, line_items: [{ price: PRICES.STRIPE_PRICE_SCALE }], metadata, subscription_data: { metadata }, discounts: [{ promotion_code: 'promo_welcome10' }] });
    // Nothing changes until Stripe says it was paid.
    expect((await live(d.tenantId)).plan).toBe('free');

    const portal = await app.request('POST', '/v1/billing/portal', { key: d.liveKey, body: {} });
    expect(portal.status).toBe(200);
    expect(portal.body.url).toMatch(new RegExp(`^${fake.url}/p/session/bps_`));
    expect(fake.seen('/v1/billing_portal/sessions').at(-1)!.params).toMatchObject({ customer: customerId });
  });

  it('an unknown coupon is a 400 naming couponCode and writes nothing', async () => {
    const d = await createTenantWithKeys(app, 'Clinic E');
    const before = { accounts: await countRows(app, 'billing_accounts'), sessions: await countRows(app, 'billing_sessions'), stripe: fake.requests.length };
    const res = await app.request('POST', '/v1/billing/checkout', { key: d.liveKey, body: { plan: 'growth', couponCode: 'NOSUCHCODE' } });
    expectEnvelope(res, 400, 'validation_error', 'invalid_coupon');
    expect(res.body.error.param).toBe('couponCode');
    expect({ accounts: await countRows(app, 'billing_accounts'), sessions: await countRows(app, 'billing_sessions'), stripe: fake.requests.length }).toEqual({ ...before, stripe: before.stripe + 1 });
    expect(fake.requests.at(-1)!.path).toBe('/v1/promotion_codes');
  });

  it('sandbox checkout stays on the simulated provider', async () => {
    const before = fake.requests.length;
    const res = await app.request('POST', '/v1/billing/checkout', { key: a.sandboxKey, body: { plan: 'growth' } });
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/\/billing\/simulated\/checkout\/bss_/);
    expect(fake.requests.length).toBe(before);
  });
});

describe('POST /v1/billing/webhooks/stripe', () => {
  const usage = (key: string) => app.request('GET', '/v1/developer/usage', { key });

  it('our signature is the one the Stripe SDK generates', () => {
    const payload = stripeEventPayload('invoice.paid', { id: 'in_1' });
    const timestamp = Math.floor(Date.now() / 1000);
    expect(signStripeWebhook(payload, WEBHOOK_SECRET, timestamp)).toBe(Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp }));
  });

  it('a paid checkout moves the live plan at once (the cap follows) and records the subscription', async () => {
    fake.subscriptions.set('sub_a', subscription('sub_a', a.tenantId, 'cus_a', PRICES.STRIPE_PRICE_GROWTH, '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z'));
    const res = await deliver(checkoutCompleted(a.tenantId, 'cus_a', 'sub_a'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    expect(fake.seen('/v1/subscriptions/sub_a')).toHaveLength(1);
    expect((await usage(a.liveKey)).body).toMatchObject({ plan: 'growth', orderCapPerMonth: 2500 });
    expect(await live(a.tenantId)).toMatchObject({ provider: 'stripe', plan: 'growth', status: 'active', customerId: 'cus_a', subscriptionId: 'sub_a', periodEnd: new Date('2026-12-01T00:00:00Z') });
    const billing = await app.request('GET', '/v1/billing', { key: a.liveKey });
    expect(billing.body).toMatchObject({ livemode: true, provider: 'stripe', plan: 'growth', status: 'active', period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' } });
    // The sandbox account is a rehearsal: Stripe never touches it.
    expect((await readAccount(app.services.database.db, { tenantId: a.tenantId, livemode: false })).status).toBe('none');
  });

  it('a bad, missing, tampered or foreign signature is a 400 and changes nothing', async () => {
    const before = await snapshot(a.tenantId);
    const payload = invoiceEvent('invoice.payment_failed', a.tenantId, 'cus_a');
    const stale = Math.floor(Date.now() / 1000) - 3600;
    const attempts: [string, string | null][] = [
      [payload, null],
      [payload, 'garbage'],
      [payload, signStripeWebhook(payload, 'whsec_someone_else')],
      [payload.replace('19900', '100'), signStripeWebhook(payload, WEBHOOK_SECRET)],
      [payload, signStripeWebhook(payload, WEBHOOK_SECRET, stale)],
    ];
    for (const [body, signature] of attempts) expectEnvelope(await deliver(body, signature), 400, 'validation_error', 'signature_invalid');
    expect(await snapshot(a.tenantId)).toEqual(before);
  });

  it('a failed invoice starts grace with Stripe’s amount and attempt count; a retry that fails again counts it', async () => {
    expect((await deliver(invoiceEvent('invoice.payment_failed', a.tenantId, 'cus_a'))).status).toBe(200);
    const health = await app.request('GET', '/v1/billing/health', { key: a.liveKey });
    expect(health.body).toMatchObject({ stage: 'grace', decision: 'ROUTE', attemptCount: 1, amountDueCents: 19_900, graceExtended: false });
    expect(await live(a.tenantId)).toMatchObject({ stage: 'grace', status: 'past_due', attemptCount: 1 });
    // Without the metadata snapshot, the customer names the tenant.
    expect((await deliver(invoiceEvent('invoice.payment_failed', null, 'cus_a', { attempt_count: 2 }))).status).toBe(200);
    expect(await live(a.tenantId)).toMatchObject({ stage: 'grace', attemptCount: 2 });
  });

  it('the same event delivered twice is applied once', async () => {
    const payload = invoiceEvent('invoice.payment_failed', a.tenantId, 'cus_a', { attempt_count: 3 });
    expect((await deliver(payload)).status).toBe(200);
    const once = await snapshot(a.tenantId);
    expect(once.account).toMatchObject({ attemptCount: 3 });
    const again = await deliver(payload);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true });
    expect(await snapshot(a.tenantId)).toEqual(once);
  });

  it('events about another tenant’s customer, an unknown customer, sandbox or types we ignore change nothing here', async () => {
    fake.subscriptions.set('sub_b', subscription('sub_b', b.tenantId, 'cus_b', PRICES.STRIPE_PRICE_STARTER, '2026-11-05T00:00:00Z', '2026-12-05T00:00:00Z'));
    expect((await deliver(checkoutCompleted(b.tenantId, 'cus_b', 'sub_b', 'starter'))).status).toBe(200);
    const before = await snapshot(a.tenantId);
    const ignored = [
      invoiceEvent('invoice.payment_failed', null, 'cus_b'),
      invoiceEvent('invoice.payment_failed', null, 'cus_nobody'),
      stripeEventPayload('invoice.payment_failed', { id: 'in_sbx', object: 'invoice', customer: 'cus_a', amount_due: 1, attempt_count: 1, parent: { subscription_details: { metadata: { tenantId: a.tenantId, livemode: 'false' } } } }),
      // Stripe sends invoice.payment_succeeded beside invoice.paid; only the latter is the payment.
      invoiceEvent('invoice.payment_succeeded', a.tenantId, 'cus_a'),
      stripeEventPayload('customer.created', { id: 'cus_a', object: 'customer', metadata: { tenantId: a.tenantId } }),
      // A subscription whose first payment has not gone through sells nothing yet.
      stripeEventPayload('customer.subscription.updated', subscription('sub_x', a.tenantId, 'cus_a', PRICES.STRIPE_PRICE_SCALE, '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z', { status: 'incomplete' })),
    ];
    for (const payload of ignored) expect((await deliver(payload)).status).toBe(200);
    const after = await snapshot(a.tenantId);
    expect(after.account).toEqual(before.account);
    expect(after.ownChanges).toBe(before.ownChanges);
    expect(await live(b.tenantId)).toMatchObject({ stage: 'grace', attemptCount: 1, plan: 'starter' });
  });

  it('a checkout paid later (delayed method) moves the plan on async_payment_succeeded; an older API’s period on the subscription is read', async () => {
    const c = await createTenantWithKeys(app, 'Clinic C');
    const { items: _items, ...legacy } = subscription('sub_c', c.tenantId, 'cus_c', PRICES.STRIPE_PRICE_STARTER, '2026-11-10T00:00:00Z', '2026-12-10T00:00:00Z');
    fake.subscriptions.set('sub_c', { ...legacy, current_period_start: seconds('2026-11-10T00:00:00Z'), current_period_end: seconds('2026-12-10T00:00:00Z') });
    const session = JSON.parse(checkoutCompleted(c.tenantId, 'cus_c', 'sub_c', 'starter')).data.object;
    expect((await deliver(stripeEventPayload('checkout.session.completed', { ...session, payment_status: 'unpaid' }))).status).toBe(200);
    expect((await live(c.tenantId)).plan).toBe('free');
    expect((await deliver(stripeEventPayload('checkout.session.async_payment_succeeded', { ...session, payment_status: 'paid' }))).status).toBe(200);
    expect(await live(c.tenantId)).toMatchObject({ plan: 'starter', periodEnd: new Date('2026-12-10T00:00:00Z') });
  });

  it('when Stripe cannot answer a lookup the delivery fails (Stripe retries it) and nothing is recorded', async () => {
    const before = await snapshot(a.tenantId);
    const res = await deliver(checkoutCompleted(a.tenantId, 'cus_a', 'sub_missing'));
    // Stripe's own refusal of the lookup: a gateway error (never a 500), and Stripe delivers the event again.
    expectEnvelope(res, 502, 'api_error', 'payment_provider_error');
    expect(await snapshot(a.tenantId)).toEqual(before);
  });

  it('a paid invoice recovers, with the period it pays', async () => {
    const line = { id: 'il_1', object: 'line_item', period: { start: seconds('2026-12-01T00:00:00Z'), end: seconds('2027-01-01T00:00:00Z') } };
    expect((await deliver(invoiceEvent('invoice.paid', a.tenantId, 'cus_a', { lines: { object: 'list', data: [line] } }))).status).toBe(200);
    expect((await app.request('GET', '/v1/billing/health', { key: a.liveKey })).body).toMatchObject({ stage: 'recovered', amountDueCents: 0, attemptCount: 0 });
    expect(await live(a.tenantId)).toMatchObject({ stage: 'recovered', status: 'active', attemptCount: 0, amountDueCents: 0, periodEnd: new Date('2027-01-01T00:00:00Z') });
  });

  it('a subscription update mirrors the plan of its price and a cancellation at period end', async () => {
    const sub = subscription('sub_a', a.tenantId, 'cus_a', PRICES.STRIPE_PRICE_SCALE, '2026-12-01T00:00:00Z', '2027-01-01T00:00:00Z', { cancel_at_period_end: true });
    expect((await deliver(stripeEventPayload('customer.subscription.updated', sub))).status).toBe(200);
    expect(await live(a.tenantId)).toMatchObject({ plan: 'scale', cancelAtPeriodEnd: true });
    expect((await usage(a.liveKey)).body.plan).toBe('scale');
  });

  it('a deleted subscription returns the tenant to free', async () => {
    const sub = subscription('sub_a', a.tenantId, 'cus_a', PRICES.STRIPE_PRICE_SCALE, '2026-12-01T00:00:00Z', '2027-01-01T00:00:00Z', { status: 'canceled' });
    expect((await deliver(stripeEventPayload('customer.subscription.deleted', sub))).status).toBe(200);
    expect(await live(a.tenantId)).toMatchObject({ plan: 'free', status: 'canceled', stage: 'healthy', subscriptionId: null });
    expect((await usage(a.liveKey)).body).toMatchObject({ plan: 'free', orderCapPerMonth: 25 });
  });
});

describe('Stripe configuration', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await startTestApp();
  });
  afterAll(async () => plain?.close());

  it('without STRIPE_SECRET_KEY there is no Stripe webhook (404)', async () => {
    const payload = stripeEventPayload('invoice.paid', { id: 'in_1' });
    const res = await plain.request('POST', '/v1/billing/webhooks/stripe', { rawBody: payload, headers: { 'stripe-signature': signStripeWebhook(payload, WEBHOOK_SECRET) } });
    expectEnvelope(res, 404, 'not_found', 'stripe_not_configured');
    expect(plain.services.payments).toBeNull();
  });

  it('a secret key without the webhook secret and every price stops start-up naming what is missing', () => {
    const base = { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, ...PRICES };
    expect(() => loadConfig(base)).not.toThrow();
    for (const missing of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_STARTER', 'STRIPE_PRICE_GROWTH', 'STRIPE_PRICE_SCALE']) {
      expect(() => loadConfig({ ...base, [missing]: undefined })).toThrow(/STRIPE_SECRET_KEY: with STRIPE_SECRET_KEY set STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_STARTER/);
    }
  });
});
