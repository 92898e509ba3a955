import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readAccount } from '@/server/domain/billing/accounts';
import { applyPaymentEvent } from '@/server/domain/billing/payment-events';
import { nextMonth, runBillingTick } from '@/server/domain/billing/dunning';
import { setSimulatedCardDeclines } from '@/server/domain/billing/simulated';
import { findSimulatedCoupon } from '@/server/domain/billing/simulated-catalog';
import { PaymentsInputError, type ExternalPayments, type HostedCheckoutRequest } from '@/server/integrations/payments/port';
import { setClock } from '@/server/lib/clock';
import { countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, OPS_KEY, type Clinic, type TestApp, startWithTwoClinics } from './helpers/harness';

// Issue 25: checkout and portal, the simulated provider's pages, and the Stripe branch through the port.

let app: TestApp;
let a: Clinic;
let b: Clinic;
beforeAll(async () => ({ app, a, b } = await startWithTwoClinics()));
afterAll(async () => app?.close());
afterEach(() => {
  setClock(null);
  app.services.payments = null;
});

const db = () => app.services.database.db;
const live = (c: Clinic) => ({ tenantId: c.tenantId, livemode: true });
const sandbox = (c: Clinic) => ({ tenantId: c.tenantId, livemode: false });
const checkout = (key: string, body: unknown) => app.request('POST', '/v1/billing/checkout', { key, body });
const portal = (key: string) => app.request('POST', '/v1/billing/portal', { key, body: {} });

/** The page's path from the url the API returned (the harness serves at its own address, not PUBLIC_URL). */
function pathOf(url: string): string {
  const u = new URL(url);
  expect(`${u.protocol}//${u.host}`).toBe(app.services.auth.publicUrl);
  return u.pathname;
}

async function startCheckout(key: string, body: Record<string, unknown>): Promise<{ path: string; id: string }> {
  const res = await checkout(key, body);
  expect(res.status, res.text).toBe(200);
  const path = pathOf(res.body.url);
  expect(path).toMatch(/^\/billing\/simulated\/checkout\/bss_[0-9a-z]{26}$/);
  return { path, id: path.split('/').pop()! };
}

/** A browser's form post: same origin unless told otherwise, redirects not followed. */
async function submit(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(app.baseUrl + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.baseUrl, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text(), headers: res.headers };
}
const act = (page: { path: string; id: string }, action: string, headers?: Record<string, string>) => submit(page.path, { token: page.id, action }, headers);
const getPage = async (path: string) => {
  const res = await fetch(app.baseUrl + path);
  return { status: res.status, text: await res.text(), headers: res.headers };
};
const usage = async (key: string) => (await app.request('GET', '/v1/developer/usage', { key })).body;

/** A live clinic of its own, subscribed to `plan` through the simulated checkout. */
async function subscribed(plan = 'starter') {
  const c = await createTenantWithKeys(app, `Clinic on ${plan}`);
  const page = await startCheckout(c.liveKey, { plan });
  expect((await act(page, 'pay')).status).toBe(303);
  return c;
}

describe('POST /v1/billing/checkout: input and permissions', () => {
  it.each([
    ['enterprise (sold by people)', { plan: 'enterprise' }, 'plan'],
    ['free', { plan: 'free' }, 'plan'],
    ['missing', {}, 'plan'],
    ['a number', { plan: 2 }, 'plan'],
    ['an extra field', { plan: 'starter', seats: 3 }, 'seats'],
    ['an empty coupon', { plan: 'starter', couponCode: '' }, 'couponCode'],
  ])('plan %s → 400 naming the field, nothing written', async (_name, body, param) => {
    const before = await countRows(app, 'billing_sessions');
    const res = await checkout(a.liveKey, body);
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe(param);
    expect(await countRows(app, 'billing_sessions')).toBe(before);
  });

  it('refuses an unknown coupon with 400 couponCode and writes nothing', async () => {
    const before = await countRows(app, 'billing_sessions');
    const res = await checkout(a.sandboxKey, { plan: 'starter', couponCode: 'FREEMONEY' });
    expectEnvelope(res, 400, 'validation_error', 'invalid_coupon');
    expect(res.body.error.param).toBe('couponCode');
    expect(await countRows(app, 'billing_sessions')).toBe(before);
  });

  it('refuses callers without billing.manage: a restricted key without it and a developer user', async () => {
    const restricted = await app.request('POST', '/v1/developer/keys', { key: a.liveKey, body: { name: 'ro', keyType: 'restricted', mode: 'live', scopes: ['orders.read'] } });
    expect(restricted.status).toBe(201);
    const dev = await createUserAndLogin(app, a.tenantId, { email: 'dev@a.example', role: 'developer' });
    const before = await countRows(app, 'billing_sessions');
    for (const key of [restricted.body.key as string, dev.token]) {
      expectEnvelope(await checkout(key, { plan: 'starter' }), 403, 'permission_error');
      expectEnvelope(await portal(key), 403, 'permission_error');
    }
    expect(await countRows(app, 'billing_sessions')).toBe(before);
  });

  it('gives an owner session and a sandbox key a simulated checkout url, the session made by the caller', async () => {
    const owner = await createUserAndLogin(app, a.tenantId, { email: 'owner@a.example', role: 'owner' });
    const res = await app.request('POST', '/v1/billing/checkout', { key: owner.token, headers: { 'x-mode': 'live' }, body: { plan: 'growth' } });
    expect(res.status, res.text).toBe(200);
    const byOwner = { id: pathOf(res.body.url).split('/').pop()! };
    const bySandbox = await startCheckout(a.sandboxKey, { plan: 'starter', couponCode: 'welcome20' });
    expect(byOwner.id).not.toBe(bySandbox.id);
    const { sql } = await import('drizzle-orm');
    const rows = (await db().execute(sql`select id, livemode, created_by, coupon_code, percent_off, expires_at - created_at as ttl from billing_sessions where id in (${byOwner.id}, ${bySandbox.id})`)) as unknown as {
      rows: { id: string; livemode: boolean; created_by: string; coupon_code: string | null; percent_off: number }[];
    };
    const byId = Object.fromEntries(rows.rows.map((r) => [r.id, r]));
    expect(byId[byOwner.id]).toMatchObject({ livemode: true, created_by: owner.id, coupon_code: null, percent_off: 0 });
    expect(byId[bySandbox.id]).toMatchObject({ livemode: false, coupon_code: 'WELCOME20', percent_off: 20 });
    expect(byId[bySandbox.id].created_by).toMatch(/^key_/);
  });
});

describe('the simulated checkout page', () => {
  it('shows the plan and the price with the coupon applied, with no script and a no-script CSP', async () => {
    const page = await startCheckout(a.sandboxKey, { plan: 'starter', couponCode: 'Welcome20' });
    const res = await getPage(page.path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('Simulated payment provider — no money moves');
    expect(res.text).toContain('Subscribe to Starter');
    expect(res.text).toContain('$49.00 / month');
    expect(res.text).toContain('WELCOME20');
    expect(res.text).toContain('Pay $39.20');
    expect(res.text).toContain('Sandbox');
    expect(res.text).toMatch(/<form method="post" action="\/billing\/simulated\/checkout\/bss_/);
    expect(res.text).toContain(`name="token" value="${page.id}"`);
    expect(res.text).not.toMatch(/<script|javascript:|\son[a-z]+=/i);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 404 pages for unknown, malformed and expired sessions', async () => {
    for (const path of ['/billing/simulated/checkout/bss_01jz0000000000000000000000', '/billing/simulated/checkout/nope', '/billing/simulated/elsewhere']) {
      const res = await getPage(path);
      expect(res.status, path).toBe(404);
      expect(res.text).toContain('unknown or has expired');
    }
    // A malformed percent-encoding is refused before any page is looked up (issue 34 item 4).
    expectEnvelope(await app.request('GET', '/billing/simulated/checkout/%E0%A4%A'), 400, 'validation_error', 'malformed_url');
    const page = await startCheckout(a.liveKey, { plan: 'starter' });
    const later = Date.now() + 24 * 3600_000 + 1000;
    setClock(() => new Date(later));
    expect((await getPage(page.path)).status).toBe(404);
    expect((await act(page, 'pay')).status).toBe(404);
    setClock(null);
    expect((await readAccount(db(), live(a))).plan).toBe('free');
  });
});

describe('paying and declining', () => {
  it('live: paying moves the plan and its cap at once; a second post changes nothing', async () => {
    const c = await createTenantWithKeys(app, 'Upgrader');
    expect(await usage(c.liveKey)).toMatchObject({ plan: 'free', orderCapPerMonth: 25 });
    const page = await startCheckout(c.liveKey, { plan: 'starter' });
    const paid = await act(page, 'pay');
    expect(paid.status).toBe(303);
    expect(paid.location).toBe('/billing?checkout=paid');
    expect(await usage(c.liveKey)).toMatchObject({ plan: 'starter', orderCapPerMonth: 250, ordersRemaining: 250 });
    expect((await app.request('GET', '/v1/billing', { key: c.liveKey })).body).toMatchObject({ plan: 'starter', priceCents: 4900, status: 'active', provider: 'simulated' });
    const account = await readAccount(db(), live(c));
    expect(account).toMatchObject({ plan: 'starter', status: 'active', provider: 'simulated', stage: 'healthy', cancelAtPeriodEnd: false });
    expect(account.customerId).toMatch(/^sim_cus_/);
    expect(account.subscriptionId).toMatch(/^sim_sub_/);
    expect(account.periodEnd!.getTime()).toBe(nextMonth(account.periodStart!).getTime());
    expect(account.nextActionAt).toEqual(account.periodEnd);

    const events = await countRows(app, 'billing_provider_events');
    const again = await act(page, 'pay');
    expect(again.status).toBe(409);
    expect(again.text).toContain('already used');
    expect((await act(page, 'decline')).status).toBe(409);
    expect(await countRows(app, 'billing_provider_events')).toBe(events);
    expect(await readAccount(db(), live(c))).toEqual(account);
    expect((await getPage(page.path)).status).toBe(404);

    // Upgrading to scale lifts the cap entirely; buying the plan already active is refused, nothing written.
    const before = await countRows(app, 'billing_sessions');
    expectEnvelope(await checkout(c.liveKey, { plan: 'starter' }), 409, 'conflict', 'plan_already_active');
    expect(await countRows(app, 'billing_sessions')).toBe(before);
    expect((await act(await startCheckout(c.liveKey, { plan: 'scale' }), 'pay')).status).toBe(303);
    const uncapped = await app.request('GET', '/v1/developer/usage', { key: c.liveKey });
    expect(uncapped.body.plan).toBe('scale');
    expect(uncapped.text).not.toContain('orderCapPerMonth');
  });

  it('refuses to charge twice for a plan paid through another open checkout', async () => {
    const c = await createTenantWithKeys(app, 'Two tabs');
    const first = await startCheckout(c.liveKey, { plan: 'growth' });
    const second = await startCheckout(c.liveKey, { plan: 'growth' });
    expect((await act(first, 'pay')).status).toBe(303);
    const events = await countRows(app, 'billing_provider_events');
    const res = await act(second, 'pay');
    expect(res.status).toBe(409);
    expect(res.text).toContain('already active');
    expect(await countRows(app, 'billing_provider_events')).toBe(events);
  });

  it('leaves an enterprise plan (set by ops) to people: live checkout 409, sandbox rehearsal allowed', async () => {
    const t = await app.request('POST', '/v1/ops/tenants', { key: OPS_KEY, body: { name: 'Big clinic', plan: 'enterprise' } });
    expect(t.status).toBe(201);
    const mint = async (mode: string) => (await app.request('POST', `/v1/developer/keys/ops/tenants/${t.body.id}`, { key: OPS_KEY, body: { name: mode, mode } })).body.key as string;
    const before = await countRows(app, 'billing_sessions');
    expectEnvelope(await checkout(await mint('live'), { plan: 'scale' }), 409, 'conflict', 'plan_managed_by_sales');
    expect(await countRows(app, 'billing_sessions')).toBe(before);
    await startCheckout(await mint('sandbox'), { plan: 'scale' });
  });

  it('sandbox: paying moves the sandbox account only, never the real plan', async () => {
    const c = await createTenantWithKeys(app, 'Rehearsal');
    const page = await startCheckout(c.sandboxKey, { plan: 'growth' });
    expect((await act(page, 'pay')).location).toBe('/billing?checkout=paid');
    const rehearsal = await app.request('GET', '/v1/billing', { key: c.sandboxKey });
    expect(rehearsal.body).toMatchObject({ livemode: false, plan: 'growth', status: 'active', provider: 'simulated', cancelAtPeriodEnd: false });
    expect(rehearsal.body.health).toMatchObject({ stage: 'healthy', decision: 'ROUTE' });
    expect((await app.request('GET', '/v1/billing', { key: c.liveKey })).body).toMatchObject({ livemode: true, plan: 'free', status: 'none' });
    expect(await readAccount(db(), sandbox(c))).toMatchObject({ plan: 'growth', status: 'active', provider: 'simulated' });
    expect(await readAccount(db(), live(c))).toMatchObject({ plan: 'free', status: 'none' });
    expect(await usage(c.liveKey)).toMatchObject({ plan: 'free', orderCapPerMonth: 25 });
    expect(await usage(c.sandboxKey)).toMatchObject({ plan: 'free' });
  });

  it('declining changes nothing but the session, which is then used', async () => {
    const c = await createTenantWithKeys(app, 'Decliner');
    const page = await startCheckout(c.liveKey, { plan: 'starter' });
    const [accounts, events] = [await countRows(app, 'billing_accounts'), await countRows(app, 'billing_provider_events')];
    const res = await act(page, 'decline');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/billing?checkout=declined');
    expect(await countRows(app, 'billing_accounts')).toBe(accounts);
    expect(await countRows(app, 'billing_provider_events')).toBe(events);
    expect(await usage(c.liveKey)).toMatchObject({ plan: 'free' });
    expect((await act(page, 'pay')).status).toBe(409);
    expect(await usage(c.liveKey)).toMatchObject({ plan: 'free' });
  });

  it("acts only on the session's own tenant, and refuses a token that is not the page's", async () => {
    const pageA = await startCheckout(a.liveKey, { plan: 'growth' });
    const pageB = await startCheckout(b.liveKey, { plan: 'starter' });
    const wrongToken = await submit(pageA.path, { token: pageB.id, action: 'pay' });
    expect(wrongToken.status).toBe(403);
    expect(await submit(pageA.path, { action: 'pay' }).then((r) => r.status)).toBe(403);
    expect((await act(pageB, 'pay')).status).toBe(303);
    expect(await usage(b.liveKey)).toMatchObject({ plan: 'starter' });
    expect(await usage(a.liveKey)).toMatchObject({ plan: 'free' });
    expect(await readAccount(db(), live(a))).toMatchObject({ plan: 'free', status: 'none' });
    expect((await getPage(pageA.path)).status).toBe(200); // still open
  });

  it('refuses posts from another site (Origin, Sec-Fetch-Site) and unknown actions, changing nothing', async () => {
    const page = await startCheckout(a.liveKey, { plan: 'starter' });
    const foreign: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null' }, { origin: app.baseUrl, 'sec-fetch-site': 'cross-site' }];
    for (const headers of foreign) {
      const res = await act(page, 'pay', headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.text).toContain('Nothing changed');
    }
    expect((await act(page, 'refund')).status).toBe(400);
    expect((await submit(page.path, { token: page.id, action: 'pay', pad: 'x'.repeat(5000) })).status).toBe(413);
    expect(await readAccount(db(), live(a))).toMatchObject({ plan: 'free', status: 'none' });
    expect((await getPage(page.path)).status).toBe(200);
    const put = await fetch(app.baseUrl + page.path, { method: 'PUT' });
    expect(put.status).toBe(405);
  });
});

describe('the simulated portal', () => {
  it('needs a billing customer first', async () => {
    const c = await createTenantWithKeys(app, 'Never paid');
    const before = await countRows(app, 'billing_sessions');
    expectEnvelope(await portal(c.liveKey), 409, 'conflict', 'no_billing_customer');
    expect(await countRows(app, 'billing_sessions')).toBe(before);
  });

  it('cancels at period end and resumes, makes the card decline, and says when nothing is due', async () => {
    const c = await subscribed('starter');
    const res = await portal(c.liveKey);
    expect(res.status).toBe(200);
    const path = pathOf(res.body.url);
    expect(path).toMatch(/^\/billing\/simulated\/portal\/bss_[0-9a-z]{26}$/);
    const page = { path, id: path.split('/').pop()! };
    const shown = await getPage(path);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Billing portal');
    expect(shown.text).toContain('Starter');
    expect(shown.text).not.toContain('pay_overdue');

    const cancel = await act(page, 'cancel_at_period_end');
    expect(cancel.status).toBe(303);
    expect(cancel.location).toBe('/billing?portal=cancel_at_period_end');
    expect(await readAccount(db(), live(c))).toMatchObject({ cancelAtPeriodEnd: true, plan: 'starter', status: 'active' });
    expect((await getPage(path)).text).toContain('then free');
    expect((await act(page, 'resume')).location).toBe('/billing?portal=resume');
    expect((await readAccount(db(), live(c))).cancelAtPeriodEnd).toBe(false);

    expect((await act(page, 'fail_next_renewal')).location).toBe('/billing?portal=fail_next_renewal');
    expect((await readAccount(db(), live(c))).simulatedCardDeclines).toBe(true);

    const nothing = await act(page, 'pay_overdue');
    expect(nothing.status).toBe(409);
    expect(nothing.text).toContain('Nothing is due');
    expect(await readAccount(db(), live(c))).toMatchObject({ stage: 'healthy', amountDueCents: 0, simulatedCardDeclines: true });
    expect((await getPage(path)).text).toContain('Declines charges (simulated)');
    await setSimulatedCardDeclines(db(), live(c), false);
    expect((await getPage(path)).text).toContain('Accepts charges');
  });

  it('pays the overdue invoice of a declined renewal: recovered, card fixed, the period kept; once', async () => {
    const c = await subscribed('growth');
    const portalPage = async () => {
      const path = pathOf((await portal(c.liveKey)).body.url);
      return { path, id: path.split('/').pop()! };
    };
    expect((await act(await portalPage(), 'fail_next_renewal')).status).toBe(303);
    const paidPeriodEnd = (await readAccount(db(), live(c))).periodEnd!;
    // The dunning worker renews at period end; the card declines, so the new period's invoice is past due.
    const renewalAt = new Date(paidPeriodEnd.getTime() + 60_000);
    setClock(() => renewalAt);
    await runBillingTick(db(), renewalAt);
    const pastDue = await readAccount(db(), live(c));
    expect(pastDue).toMatchObject({ status: 'past_due', stage: 'grace', amountDueCents: 19_900, attemptCount: 1, periodStart: paidPeriodEnd });
    const page = await portalPage();
    expect((await getPage(page.path)).text).toContain('Pay $199.00 now');
    const paid = await act(page, 'pay_overdue');
    expect(paid.location).toBe('/billing?portal=pay_overdue');
    const after = await readAccount(db(), live(c));
    expect(after).toMatchObject({ stage: 'recovered', status: 'active', amountDueCents: 0, attemptCount: 0, simulatedCardDeclines: false, firstFailedAt: null });
    expect(after.periodStart).toEqual(pastDue.periodStart);
    expect(after.periodEnd).toEqual(pastDue.periodEnd);
    expect(after.nextActionAt).toEqual(pastDue.periodEnd);
    const events = await countRows(app, 'billing_provider_events');
    expect((await act(page, 'pay_overdue')).text).toContain('Nothing is due');
    expect(await countRows(app, 'billing_provider_events')).toBe(events);
    expect((await app.request('GET', '/v1/billing/health', { key: c.liveKey })).body).toMatchObject({ stage: 'recovered', amountDueCents: 0 });
  });

  it('expires after an hour and says there is nothing to change without a subscription', async () => {
    const c = await subscribed('starter');
    const path = pathOf((await portal(c.liveKey)).body.url);
    const page = { path, id: path.split('/').pop()! };
    setClock(() => new Date(Date.now() + 3600_000 + 1000));
    expect((await getPage(path)).status).toBe(404);
    expect((await act(page, 'cancel_at_period_end')).status).toBe(404);
    setClock(null);
    expect((await readAccount(db(), live(c))).cancelAtPeriodEnd).toBe(false);
    await applyPaymentEvent(db(), { provider: 'simulated', eventId: `test_cancel:${c.tenantId}`, scope: live(c), event: { type: 'subscription.canceled' } });
    expect(await usage(c.liveKey)).toMatchObject({ plan: 'free' });
    const res = await act(page, 'cancel_at_period_end');
    expect(res.status).toBe(409);
    expect(res.text).toContain('no active subscription');
  });
});

describe('live with Stripe configured (through the payments port)', () => {
  function fakeStripe(opts: { customerId?: string | null; refuseCoupon?: boolean } = {}) {
    const calls: { checkout: HostedCheckoutRequest[]; portal: { customerId: string; returnUrl: string }[] } = { checkout: [], portal: [] };
    const payments: ExternalPayments = {
      kind: 'stripe',
      async createCheckout(req) {
        calls.checkout.push(req);
        if (opts.refuseCoupon && req.couponCode) throw new PaymentsInputError('couponCode', 'No active promotion code matches couponCode.');
        return { url: 'https://checkout.stripe.test/c/pay_123', customerId: opts.customerId === undefined ? 'cus_fake_1' : opts.customerId };
      },
      async createPortal(req) {
        calls.portal.push(req);
        return { url: 'https://billing.stripe.test/p/session_1' };
      },
      async verifyWebhook() {
        throw new Error('not used here');
      },
    };
    app.services.payments = payments;
    return calls;
  }

  it('sends live checkouts to Stripe, keeps the customer, and opens the Stripe portal', async () => {
    const calls = fakeStripe();
    const c = await createTenantWithKeys(app, 'Stripe clinic');
    expectEnvelope(await portal(c.liveKey), 409, 'conflict', 'no_billing_customer');
    const before = await countRows(app, 'billing_sessions');
    const res = await checkout(c.liveKey, { plan: 'growth', couponCode: 'SPRING' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ url: 'https://checkout.stripe.test/c/pay_123' });
    const publicUrl = app.services.auth.publicUrl;
    expect(calls.checkout).toEqual([
      { tenantId: c.tenantId, livemode: true, plan: 'growth', couponCode: 'SPRING', customerId: null, successUrl: `${publicUrl}/billing?checkout=success`, cancelUrl: `${publicUrl}/billing?checkout=cancelled` },
    ]);
    expect(await countRows(app, 'billing_sessions')).toBe(before);
    expect(await readAccount(db(), live(c))).toMatchObject({ customerId: 'cus_fake_1', plan: 'free', status: 'none' });

    await checkout(c.liveKey, { plan: 'starter' });
    expect(calls.checkout[1].customerId).toBe('cus_fake_1');
    const opened = await portal(c.liveKey);
    expect(opened.body).toEqual({ url: 'https://billing.stripe.test/p/session_1' });
    expect(calls.portal).toEqual([{ customerId: 'cus_fake_1', returnUrl: `${publicUrl}/billing` }]);
  });

  it("turns Stripe's refusal of a coupon into 400 couponCode, and keeps sandbox on the simulated provider", async () => {
    const calls = fakeStripe({ refuseCoupon: true });
    const res = await checkout(a.liveKey, { plan: 'starter', couponCode: 'NOPE' });
    expectEnvelope(res, 400, 'validation_error', 'invalid_coupon');
    expect(res.body.error.param).toBe('couponCode');
    expect((await readAccount(db(), live(a))).customerId).toBeNull();
    const sandboxUrl = await checkout(a.sandboxKey, { plan: 'starter' });
    expect(pathOf(sandboxUrl.body.url)).toMatch(/^\/billing\/simulated\/checkout\//);
    expect(calls.checkout).toHaveLength(1);
  });
});

describe('the simulated coupons', () => {
  it('are matched case-insensitively', () => {
    expect(findSimulatedCoupon(' launch50 ')).toMatchObject({ code: 'LAUNCH50', percentOff: 50 });
    expect(findSimulatedCoupon('toString')).toBeNull();
  });
});
