import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import { applyPaymentEvent } from '@/server/domain/billing/payment-events';
import { setClock } from '@/server/lib/clock';
import { type Clinic, createTenantWithKeys, createUserAndLogin, startWithTwoClinics, type TestApp, VALID_NPI } from './helpers/harness';
import { query } from './helpers/dispatch';
import { trpcFailure } from './helpers/trpc';

/**
 * billing.banner over /api/trpc: every signed-in role of the tenant reads the stage of its own
 * tenant's billing (never another's, never amounts), computed from the dunning clock; healthy by default.
 */
let app: TestApp;
let a: Clinic;
let b: Clinic;
const tokens: Record<string, string> = {};
const DAY = 86_400_000;

const client = (token: string, mode: 'sandbox' | 'live' = 'sandbox') =>
  createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${token}`, 'x-mode': mode } })] });

let eventSeq = 0;
/** A payment of the clinic failed `days` ago (the clock is moved back for the event only); returns when. */
async function failDaysAgo(c: Clinic, livemode: boolean, days: number): Promise<Date> {
  const at = new Date(Date.now() - days * DAY);
  setClock(() => at);
  try {
    await applyPaymentEvent(app.services.database.db, {
      provider: 'simulated',
      eventId: `test_banner_fail_${++eventSeq}`,
      scope: { tenantId: c.tenantId, livemode },
      event: { type: 'payment.failed', amountDueCents: 4900 },
    });
  } finally {
    setClock(null);
  }
  return at;
}
const pay = (c: Clinic, livemode: boolean) =>
  applyPaymentEvent(app.services.database.db, {
    provider: 'simulated',
    eventId: `test_banner_pay_${++eventSeq}`,
    scope: { tenantId: c.tenantId, livemode },
    event: { type: 'payment.succeeded' },
  });

beforeAll(async () => {
  ({ app, a, b } = await startWithTwoClinics());
  for (const role of ['owner', 'admin', 'developer', 'provider'] as const) {
    const extra = role === 'provider' ? { npi: VALID_NPI, npiVerified: true, licensedStates: ['CA'] } : {};
    tokens[role] = (await createUserAndLogin(app, a.tenantId, { email: `banner-${role}@a.test`, role, ...extra })).token;
  }
  tokens.otherOwner = (await createUserAndLogin(app, b.tenantId, { email: 'banner-owner@b.test', role: 'owner' })).token;
}, 180_000);
afterAll(async () => app?.close());
afterEach(() => setClock(null));

describe('billing.banner', () => {
  it('is healthy for a tenant that never had a billing account, in both modes', async () => {
    for (const mode of ['sandbox', 'live'] as const) {
      const banner = await client(tokens.developer, mode).billing.banner.query();
      expect(banner).toEqual({ livemode: mode === 'live', stage: 'healthy', decision: 'ROUTE', nextActionAt: null });
    }
  });

  it('is read by every signed-in role of the tenant, with the stage and decision only', async () => {
    const failedAt = await failDaysAgo(a, true, 4);
    for (const role of ['owner', 'admin', 'developer', 'provider']) {
      const banner = await client(tokens[role], 'live').billing.banner.query();
      expect(banner, role).toEqual({ livemode: true, stage: 'warning', decision: 'DEGRADE', nextActionAt: new Date(failedAt.getTime() + 7 * DAY).toISOString() });
    }
  });

  it('shows a live payment past due in sandbox mode too, since the console opens in sandbox', async () => {
    expect(await client(tokens.developer, 'sandbox').billing.banner.query()).toMatchObject({ livemode: true, stage: 'warning', decision: 'DEGRADE' });
  });

  it('follows the dunning clock even when no worker moved the stored stage', { timeout: 90_000 }, async () => {
    const c = await createTenantWithKeys(app, 'Clinic C');
    const owner = (await createUserAndLogin(app, c.tenantId, { email: 'banner-owner@c.test', role: 'owner' })).token;
    const failedAt = await failDaysAgo(c, true, 10);
    expect(await client(owner, 'live').billing.banner.query()).toEqual({
      livemode: true,
      stage: 'restricted',
      decision: 'SOFT_BLOCK',
      nextActionAt: new Date(failedAt.getTime() + 14 * DAY).toISOString(),
    });
    // No worker ran: the stored stage is still the one of the failure; the banner reads the clock, as enforcement does.
    const stored = await query<{ stage: string }>(app, sql`select stage from billing_accounts where tenant_id = ${c.tenantId} and livemode = true`);
    expect(stored).toEqual([{ stage: 'grace' }]);
    const later = Date.now() + 5 * DAY;
    setClock(() => new Date(later));
    // A session signed in at the moved clock (sessions expire by the same clock).
    const laterOwner = (await createUserAndLogin(app, c.tenantId, { email: 'banner-later@c.test', role: 'owner' })).token;
    expect(await client(laterOwner, 'live').billing.banner.query()).toEqual({ livemode: true, stage: 'suspended', decision: 'BLOCK', nextActionAt: null });
  });

  it('never shows another tenant’s state', async () => {
    for (const mode of ['sandbox', 'live'] as const) {
      expect(await client(tokens.otherOwner, mode).billing.banner.query()).toEqual({ livemode: mode === 'live', stage: 'healthy', decision: 'ROUTE', nextActionAt: null });
    }
  });

  it('shows a sandbox rehearsal only in sandbox mode, and clears once paid', async () => {
    await failDaysAgo(b, false, 1);
    expect(await client(tokens.otherOwner, 'sandbox').billing.banner.query()).toMatchObject({ livemode: false, stage: 'grace', decision: 'ROUTE' });
    expect(await client(tokens.otherOwner, 'live').billing.banner.query()).toMatchObject({ livemode: true, stage: 'healthy' });
    await pay(b, false);
    expect(await client(tokens.otherOwner, 'sandbox').billing.banner.query()).toEqual({ livemode: false, stage: 'recovered', decision: 'ROUTE', nextActionAt: null });
  });

  it('refuses API keys (a console session only) and calls without a credential', async () => {
    expect((await trpcFailure(client(a.sandboxKey).billing.banner.query())).data).toMatchObject({ httpStatus: 403, code: 'user_session_required' });
    const anonymous = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc` })] });
    expect((await trpcFailure(anonymous.billing.banner.query())).data).toMatchObject({ httpStatus: 401 });
  });
});
