import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { billingAccounts, billingProviderEvents, jobs } from '@/db/schema';
import { BILLING_NOTICE_JOB } from '@/server/domain/billing/accounts';
import { nextMonth, runBillingTick } from '@/server/domain/billing/dunning';
import { applyPaymentEvent, type PaymentEvent } from '@/server/domain/billing/payment-events';
import { setClock } from '@/server/lib/clock';
import { createTenantWithKeys, createUserAndLogin, OPS_KEY, readOutbox, startTestApp, type Clinic, type TestApp } from './helpers/harness';

/*
 * Dunning driven end to end (DESIGN decision 29): a live account on the simulated provider whose card
 * declines at renewal goes grace → warning → restricted → suspended on the worker's schedule, owners are
 * mailed at the last three, each change is in GET /v1/billing with its time and cause; paying recovers it and
 * the next paid period makes it healthy; ops' extension shifts every step by 7 days; a cancellation at period
 * end returns the tenant to the free cap; a renewal is applied once however many ticks race for it.
 */

const DAY = 86_400_000;
let app: TestApp;
let clock = new Date();
beforeAll(async () => {
  app = await startTestApp({ RUN_WORKER: 'true' });
});
afterAll(async () => app?.close());
afterEach(() => setClock(null));

function setNow(at: Date) {
  clock = at;
  setClock(() => clock);
}
const plus = (at: Date, ms: number) => new Date(at.getTime() + ms);
const db = () => app.services.database.db;

const billing = (c: Clinic, mode: 'live' | 'sandbox' = 'live') => app.request('GET', '/v1/billing', { key: mode === 'live' ? c.liveKey : c.sandboxKey });
const health = async (c: Clinic, mode: 'live' | 'sandbox' = 'live') => (await app.request('GET', '/v1/billing/health', { key: mode === 'live' ? c.liveKey : c.sandboxKey })).body;

let eventSeq = 0;
async function pay(c: Clinic, event: PaymentEvent, livemode = true) {
  const applied = await applyPaymentEvent(db(), { provider: 'simulated', eventId: `test_evt_${++eventSeq}`, scope: { tenantId: c.tenantId, livemode }, event });
  expect(applied).toBe(true);
}

/**
 * A paid checkout at `start` (the simulated checkout page is helper B's work; its outcome is this event).
 * Returns the end of the first period.
 */
async function subscribed(c: Clinic, start: Date, plan: 'starter' | 'growth' | 'scale' = 'starter', livemode = true) {
  setNow(start);
  const periodEnd = nextMonth(start);
  await pay(c, { type: 'checkout.completed', plan, customerId: null, subscriptionId: null, periodStart: start, periodEnd }, livemode);
  return periodEnd;
}

/** The card on file declines from now on. The portal page's "the next renewal fails" (helper B) sets this same column. */
async function cardDeclines(c: Clinic, livemode = true) {
  await db()
    .update(billingAccounts)
    .set({ simulatedCardDeclines: true })
    .where(and(eq(billingAccounts.tenantId, c.tenantId), eq(billingAccounts.livemode, livemode)));
}

async function tick(at: Date) {
  setNow(at);
  await app.worker!.runBilling();
}

async function clinicWithOwner(name: string) {
  const c = await createTenantWithKeys(app, name);
  const slug = name.toLowerCase().replace(/\W+/g, '-');
  await createUserAndLogin(app, c.tenantId, { email: `owner@${slug}.test`, role: 'owner' });
  await createUserAndLogin(app, c.tenantId, { email: `admin@${slug}.test`, role: 'admin' });
  return { ...c, owner: `owner@${slug}.test`, admin: `admin@${slug}.test` };
}

/** The outbox may hold a file the worker is still writing: read again until every file parses. */
function mailsTo(email: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      return readOutbox(app).filter((m) => m.to === email);
    } catch (err) {
      if (attempt > 20 || !(err instanceof SyntaxError)) throw err;
    }
  }
}
/**
 * Waits for the owner's n-th mail, then for the notice jobs to be gone: a finished job is deleted on the
 * worker's next turn, and one still there when the test moves the clock days ahead would see its lease
 * expired and run again.
 */
async function expectMails(email: string, n: number) {
  await vi.waitFor(() => expect(mailsTo(email)).toHaveLength(n), { timeout: 30_000, interval: 50 });
  await vi.waitFor(async () => expect(await db().select({ id: jobs.id }).from(jobs).where(eq(jobs.kind, BILLING_NOTICE_JOB))).toEqual([]), { timeout: 30_000, interval: 50 });
  return mailsTo(email);
}

const iso = (d: Date) => d.toISOString();

describe('dunning of a live account on the simulated provider', () => {
  it('walks grace → warning → restricted → suspended on schedule, mails owners, recovers on payment and is healthy at the next paid period', async () => {
    const c = await clinicWithOwner('Dunning Walk');
    const periodEnd = await subscribed(c, new Date('2031-01-10T09:00:00.000Z'));
    expect((await app.request('GET', '/v1/developer/usage', { key: c.liveKey })).body.orderCapPerMonth).toBe(250);
    await cardDeclines(c);

    // Nothing is due before the period ends.
    await tick(plus(periodEnd, -60_000));
    expect(await health(c)).toMatchObject({ stage: 'healthy', nextActionAt: iso(periodEnd) });

    // The renewal declines: grace, one attempt, the plan's price due; the period moves on (as Stripe's does).
    const failedAt = plus(periodEnd, 3_600_000);
    await tick(failedAt);
    expect(await health(c)).toStrictEqual({ stage: 'grace', decision: 'ROUTE', amountDueCents: 4_900, nextActionAt: iso(plus(failedAt, 3 * DAY)), attemptCount: 1, graceExtended: false });
    const inGrace = (await billing(c)).body;
    expect(inGrace).toMatchObject({ plan: 'starter', status: 'past_due', period: { start: iso(periodEnd), end: iso(nextMonth(periodEnd)) } });
    expect(inGrace.stageHistory).toStrictEqual([{ from: 'healthy', to: 'grace', cause: 'payment_failed', at: iso(failedAt) }]);
    expect(mailsTo(c.owner)).toHaveLength(0);

    // Each boundary: the stage moves (cause schedule), the card is retried (one more attempt), the owners are mailed.
    const steps = [
      { days: 3, stage: 'warning', decision: 'DEGRADE', next: 7, attempts: 2, subject: /AI generation and new experiments are paused/ },
      { days: 7, stage: 'restricted', decision: 'SOFT_BLOCK', next: 14, attempts: 3, subject: /new approvals and new flow sessions are refused/ },
      { days: 14, stage: 'suspended', decision: 'BLOCK', next: null, attempts: 4, subject: /suspended/ },
    ] as const;
    let previous = 'grace';
    for (const [i, s] of steps.entries()) {
      const at = plus(failedAt, s.days * DAY);
      await tick(plus(at, -1));
      expect((await health(c)).stage).toBe(previous);
      await tick(at);
      expect(await health(c)).toStrictEqual({
        stage: s.stage,
        decision: s.decision,
        amountDueCents: 4_900,
        nextActionAt: s.next === null ? null : iso(plus(failedAt, s.next * DAY)),
        attemptCount: s.attempts,
        graceExtended: false,
      });
      expect((await billing(c)).body.stageHistory[0]).toStrictEqual({ from: previous, to: s.stage, cause: 'schedule', at: iso(at) });
      const mails = await expectMails(c.owner, i + 1);
      const mail = mails[i];
      expect(mail.subject).toMatch(s.subject);
      expect(mail.subject).not.toMatch(/Sandbox/);
      expect(mail.subject).toContain('Dunning Walk');
      expect(mail.text).toContain('$49.00');
      expect(mail.text).toMatch(/How to pay: open http:\/\/\S+\/billing/);
      previous = s.stage;
    }
    expect(mailsTo(c.admin)).toHaveLength(0);
    expect(mailsTo(c.owner)[2].text).toMatch(/no prescription already dispatched is abandoned/);

    // Suspended is the end of the schedule: further ticks neither retry nor move anything.
    await tick(plus(failedAt, 20 * DAY));
    expect(await health(c)).toMatchObject({ stage: 'suspended', attemptCount: 4, nextActionAt: null });

    // Paying the open invoice (the portal's "pay" action produces this event) recovers; the next paid period is healthy.
    await pay(c, { type: 'payment.succeeded' });
    const secondEnd = nextMonth(periodEnd);
    expect(await health(c)).toStrictEqual({ stage: 'recovered', decision: 'ROUTE', amountDueCents: 0, nextActionAt: iso(secondEnd), attemptCount: 0, graceExtended: false });
    await tick(plus(secondEnd, 60_000));
    expect(await health(c)).toStrictEqual({ ...{ stage: 'healthy', decision: 'ROUTE', amountDueCents: 0, attemptCount: 0, graceExtended: false }, nextActionAt: iso(nextMonth(secondEnd)) });
    const history = (await billing(c)).body.stageHistory;
    expect(history.map((h: { from: string; to: string; cause: string }) => `${h.from}>${h.to}:${h.cause}`)).toStrictEqual([
      'recovered>healthy:period_paid',
      'suspended>recovered:payment_succeeded',
      'restricted>suspended:schedule',
      'warning>restricted:schedule',
      'grace>warning:schedule',
      'healthy>grace:payment_failed',
    ]);
    expect(history[0].at).toBe(iso(plus(secondEnd, 60_000)));
    expect((await billing(c)).body).toMatchObject({ status: 'active', plan: 'starter', period: { start: iso(secondEnd), end: iso(nextMonth(secondEnd)) } });
    expect(await expectMails(c.owner, 3)).toHaveLength(3);
  });

  it('shows the stage the dunning clock is in even before the worker has run (a late worker never matters)', async () => {
    const c = await clinicWithOwner('Late Worker');
    const periodEnd = await subscribed(c, new Date('2031-02-03T12:00:00.000Z'), 'growth');
    await cardDeclines(c);
    await tick(periodEnd);
    setNow(plus(periodEnd, 8 * DAY));
    expect(await health(c)).toMatchObject({ stage: 'restricted', decision: 'SOFT_BLOCK', amountDueCents: 19_900, attemptCount: 1, nextActionAt: iso(plus(periodEnd, 14 * DAY)) });
    // The stored stage catches up in one move, with one retry for the missed boundaries.
    await tick(plus(periodEnd, 8 * DAY));
    expect(await health(c)).toMatchObject({ stage: 'restricted', attemptCount: 2 });
    expect((await billing(c)).body.stageHistory[0]).toMatchObject({ from: 'grace', to: 'restricted', cause: 'schedule' });
    expect((await expectMails(c.owner, 1))[0].subject).toMatch(/new approvals/);
  });

  it("ops' grace extension moves a past-due account back and shifts every later step by 7 days", async () => {
    const c = await clinicWithOwner('Extended Grace');
    const periodEnd = await subscribed(c, new Date('2031-03-05T08:00:00.000Z'));
    await cardDeclines(c);
    await tick(periodEnd);
    await tick(plus(periodEnd, 4 * DAY));
    expect((await health(c)).stage).toBe('warning');
    await expectMails(c.owner, 1);

    const extended = await app.request('POST', `/v1/ops/tenants/${c.tenantId}/billing/extend-grace`, { key: OPS_KEY, body: {} });
    expect(extended.status, extended.text).toBe(200);
    expect(extended.body).toStrictEqual({ stage: 'grace', decision: 'ROUTE', amountDueCents: 4_900, nextActionAt: iso(plus(periodEnd, 10 * DAY)), attemptCount: 2, graceExtended: true });
    expect((await billing(c)).body.stageHistory[0]).toStrictEqual({ from: 'warning', to: 'grace', cause: 'grace_extended', at: iso(plus(periodEnd, 4 * DAY)) });
    expect((await app.request('POST', `/v1/ops/tenants/${c.tenantId}/billing/extend-grace`, { key: OPS_KEY, body: {} })).status).toBe(409);

    // Mails: warning (before the extension), then warning again, restricted, suspended. Each is awaited before the
    // clock moves on: a notice the worker picks up after its stage has passed is dropped as stale.
    let mails = 1;
    for (const [days, stage, next] of [[10, 'warning', 14], [14, 'restricted', 21], [21, 'suspended', null]] as const) {
      await tick(plus(periodEnd, days * DAY - 1));
      expect((await health(c)).stage).not.toBe(stage);
      await tick(plus(periodEnd, days * DAY));
      expect(await health(c)).toMatchObject({ stage, nextActionAt: next === null ? null : iso(plus(periodEnd, next * DAY)), graceExtended: true });
      await expectMails(c.owner, ++mails);
    }
    expect(mails).toBe(4);
  });

  it('an extension used while healthy applies to the next dunning', async () => {
    const c = await clinicWithOwner('Extended Early');
    const periodEnd = await subscribed(c, new Date('2031-04-07T10:30:00.000Z'));
    const early = await app.request('POST', `/v1/ops/tenants/${c.tenantId}/billing/extend-grace`, { key: OPS_KEY, body: { mode: 'live' } });
    expect(early.body).toStrictEqual({ stage: 'healthy', decision: 'ROUTE', amountDueCents: 0, nextActionAt: iso(periodEnd), attemptCount: 0, graceExtended: true });
    expect((await billing(c)).body.stageHistory).toStrictEqual([]);
    await cardDeclines(c);
    await tick(periodEnd);
    expect(await health(c)).toMatchObject({ stage: 'grace', nextActionAt: iso(plus(periodEnd, 10 * DAY)), graceExtended: true });
    await tick(plus(periodEnd, 9 * DAY));
    expect((await health(c)).stage).toBe('grace');
  });

  it('cancels at period end: the plan returns to free and GET /v1/developer/usage shows the free cap', async () => {
    const c = await clinicWithOwner('Cancel Clinic');
    const periodEnd = await subscribed(c, new Date('2031-05-20T16:00:00.000Z'), 'growth');
    const usage = async () => (await app.request('GET', '/v1/developer/usage', { key: c.liveKey })).body;
    expect(await usage()).toMatchObject({ plan: 'growth', orderCapPerMonth: 2_500 });
    await pay(c, { type: 'subscription.updated', cancelAtPeriodEnd: true });
    expect((await billing(c)).body).toMatchObject({ plan: 'growth', cancelAtPeriodEnd: true, status: 'active' });

    await tick(plus(periodEnd, -60_000));
    expect((await billing(c)).body).toMatchObject({ plan: 'growth', status: 'active' });
    await tick(plus(periodEnd, 60_000));
    expect((await billing(c)).body).toMatchObject({ plan: 'free', priceCents: 0, status: 'canceled', period: null, cancelAtPeriodEnd: false, health: { stage: 'healthy', nextActionAt: null } });
    expect(await usage()).toMatchObject({ plan: 'free', orderCapPerMonth: 25 });
  });

  it('rehearses in sandbox: [Sandbox] mail, and the live plan never moves', async () => {
    const c = await clinicWithOwner('Sandbox Rehearsal');
    const periodEnd = await subscribed(c, new Date('2031-06-02T07:00:00.000Z'), 'scale', false);
    await cardDeclines(c, false);
    await tick(periodEnd);
    await tick(plus(periodEnd, 3 * DAY));
    expect(await health(c, 'sandbox')).toMatchObject({ stage: 'warning', amountDueCents: 59_900 });
    expect(await health(c)).toMatchObject({ stage: 'healthy' });
    expect((await billing(c)).body).toMatchObject({ plan: 'free', status: 'none' });
    expect((await billing(c, 'sandbox')).body).toMatchObject({ plan: 'scale', provider: 'simulated', status: 'past_due' });
    const [mail] = await expectMails(c.owner, 1);
    expect(mail.subject).toMatch(/^\[Sandbox\] /);
    expect(mail.text).toMatch(/sandbox rehearsal account/);
  });
});

describe('the billing tick under repetition and concurrency', () => {
  it('applies a renewal once when the same tick runs twice and when several ticks race', async () => {
    const paid = await clinicWithOwner('Race Paid');
    const declined = await clinicWithOwner('Race Declined');
    const start = new Date('2031-07-01T00:00:00.000Z');
    const periodEnd = await subscribed(paid, start);
    await subscribed(declined, start);
    await cardDeclines(declined);

    setNow(plus(periodEnd, 5_000));
    await Promise.all([runBillingTick(db()), runBillingTick(db()), app.worker!.runBilling(), runBillingTick(db())]);
    await tick(plus(periodEnd, 5_000));

    expect((await billing(paid)).body).toMatchObject({ status: 'active', period: { start: iso(periodEnd), end: iso(nextMonth(periodEnd)) } });
    expect(await health(paid)).toMatchObject({ stage: 'healthy', nextActionAt: iso(nextMonth(periodEnd)) });
    expect(await health(declined)).toMatchObject({ stage: 'grace', attemptCount: 1, amountDueCents: 4_900 });
    expect((await billing(declined)).body.stageHistory).toHaveLength(1);

    const applied = await db()
      .select({ eventId: billingProviderEvents.eventId })
      .from(billingProviderEvents)
      .where(like(billingProviderEvents.eventId, 'sim_%'));
    const ofTenant = async (c: Clinic) => {
      const [row] = await db().select({ id: billingAccounts.id }).from(billingAccounts).where(and(eq(billingAccounts.tenantId, c.tenantId), eq(billingAccounts.livemode, true)));
      return applied.filter((e) => e.eventId.includes(row!.id)).map((e) => e.eventId).sort();
    };
    expect(await ofTenant(paid)).toHaveLength(1);
    expect(await ofTenant(declined)).toHaveLength(2); // the period moving on, and the declined charge
  });
});
