import { and, eq } from 'drizzle-orm';
import { billingSessions, tenants } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';
import { lockAccount, readAccount, saveAccount, type BillingAccount } from './accounts';
import { applyPaymentEvent } from './payment-events';
import { CHECKOUT_PLANS, type CheckoutPlan } from './plans';
import { nextMonth } from './dunning';

/**
 * The simulated payments provider (DESIGN decision 29): the checkout and portal pages' sessions and what their
 * buttons do. Every change goes through applyPaymentEvent with provider 'simulated', exactly as a Stripe
 * webhook would, so dunning, plans and caps behave the same whichever provider moved them.
 */
export type BillingSession = typeof billingSessions.$inferSelect;
export type SessionKind = BillingSession['kind'];

/**
 * `pay_card_declines_renewals` pays today with a card that declines every later charge (Stripe's test card
 * 4000 0000 0000 0341): with the sandbox test clock it takes a clinic through dunning (decision 35).
 */
export const CHECKOUT_ACTIONS = ['pay', 'pay_card_declines_renewals', 'decline'] as const;
export const PORTAL_ACTIONS = ['pay_overdue', 'cancel_at_period_end', 'resume', 'fail_next_renewal'] as const;
export type CheckoutAction = (typeof CHECKOUT_ACTIONS)[number];
export type PortalAction = (typeof PORTAL_ACTIONS)[number];

/** What a page shows: the session, its tenant's name and the account it acts on. */
export interface SessionView {
  session: BillingSession & { plan: CheckoutPlan | null };
  tenantName: string;
  account: BillingAccount;
}

export type SessionLookup = { state: 'missing' } | { state: 'used'; session: BillingSession } | ({ state: 'open' } & SessionView);

export type ActionOutcome =
  | { state: 'missing' }
  | { state: 'used'; session: BillingSession }
  /** The action was not applicable (nothing due, no subscription, plan already active): nothing changed. */
  | { state: 'refused'; reason: 'nothing_due' | 'no_subscription' | 'plan_already_active' }
  | { state: 'done'; result: 'paid' | 'declined' | PortalAction };

// Same shape as every id (server/lib/ids.ts): anything else is not looked up at all.
const SESSION_ID = /^bss_[0-9a-z]{26}$/;

/** A session by its id, which is the page's bearer secret: unscoped by nature, the row names its tenant and mode. */
async function findSession(q: Queryable, kind: SessionKind, id: string, forUpdate: boolean): Promise<BillingSession | null> {
  if (!SESSION_ID.test(id)) return null;
  const query = q.select().from(billingSessions).where(and(eq(billingSessions.id, id), eq(billingSessions.kind, kind))).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row && row.expiresAt.getTime() > now().getTime() ? row : null;
}

const scopeOf = (s: BillingSession): Scope => ({ tenantId: s.tenantId, livemode: s.livemode });
const asPlan = (plan: string | null): CheckoutPlan | null => ((CHECKOUT_PLANS as readonly string[]).includes(plan ?? '') ? (plan as CheckoutPlan) : null);
const hasSubscription = (a: BillingAccount) => a.status === 'active' || a.status === 'past_due';

/** What the page at `/billing/simulated/<kind>/<id>` shows; unknown and expired sessions are missing, finished checkouts used. */
export async function readSimulatedSession(db: Db, kind: SessionKind, id: string): Promise<SessionLookup> {
  const session = await findSession(db, kind, id, false);
  if (!session) return { state: 'missing' };
  if (session.status !== 'open') return { state: 'used', session };
  const [tenant] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, session.tenantId)).limit(1);
  return { state: 'open', session: { ...session, plan: asPlan(session.plan) }, tenantName: tenant?.name ?? '', account: await readAccount(db, scopeOf(session)) };
}

/**
 * Pays or declines a checkout, once: the session row is locked, so a double submit or a pay racing a decline
 * applies exactly one of them. A declined checkout changes nothing else (it is not a failed renewal).
 */
export async function actOnCheckout(db: Db, id: string, action: CheckoutAction): Promise<ActionOutcome> {
  return db.transaction(async (tx) => {
    const session = await findSession(tx, 'checkout', id, true);
    if (!session) return { state: 'missing' };
    if (session.status !== 'open') return { state: 'used', session };
    const scope = scopeOf(session);
    const plan = asPlan(session.plan);
    if (!plan) return { state: 'missing' };
    if (action === 'decline') {
      await finish(tx, session, 'declined');
      return { state: 'done', result: 'declined' };
    }
    const account = await lockAccount(tx, scope);
    if (account.plan === plan && hasSubscription(account)) return { state: 'refused', reason: 'plan_already_active' };
    const at = now();
    await applyPaymentEvent(tx, {
      provider: 'simulated',
      eventId: `sim_checkout:${session.id}`,
      scope,
      event: {
        type: 'checkout.completed',
        plan,
        customerId: account.customerId ?? `sim_cus_${scope.tenantId}_${scope.livemode ? 'live' : 'test'}`,
        subscriptionId: `sim_sub_${newId('billingEvent').slice(4)}`,
        periodStart: at,
        periodEnd: nextMonth(at),
      },
    });
    // The card paid with becomes the card on file: renewals decline with the one chosen to decline.
    await saveAccount(tx, await lockAccount(tx, scope), { simulatedCardDeclines: action === 'pay_card_declines_renewals' });
    await finish(tx, session, 'paid');
    return { state: 'done', result: 'paid' };
  });
}

async function finish(tx: Queryable, session: BillingSession, status: 'paid' | 'declined'): Promise<void> {
  await scoped(tx, scopeOf(session)).update(billingSessions, session.id, { status, completedAt: now() });
}

/** A portal button. The portal session stays usable until it expires (an hour), like Stripe's. */
export async function actOnPortal(db: Db, id: string, action: PortalAction): Promise<ActionOutcome> {
  return db.transaction(async (tx) => {
    const session = await findSession(tx, 'portal', id, false);
    if (!session) return { state: 'missing' };
    const scope = scopeOf(session);
    const account = await lockAccount(tx, scope);
    if (action === 'pay_overdue') {
      if (account.amountDueCents <= 0) return { state: 'refused', reason: 'nothing_due' };
      // The overdue invoice is the current period's (a declined renewal moves the period on, as Stripe does);
      // paying it recovers the account and fixes the card. One invoice is paid once, whatever the clicks.
      await applyPaymentEvent(tx, {
        provider: 'simulated',
        eventId: `sim_pay_overdue:${account.id}:${(account.firstFailedAt ?? account.periodStart ?? now()).toISOString()}`,
        scope,
        event: { type: 'payment.succeeded' },
      });
      return { state: 'done', result: action };
    }
    if (!hasSubscription(account)) return { state: 'refused', reason: 'no_subscription' };
    if (action === 'fail_next_renewal') {
      await saveAccount(tx, account, { simulatedCardDeclines: true });
      return { state: 'done', result: action };
    }
    const cancelAtPeriodEnd = action === 'cancel_at_period_end';
    if (account.cancelAtPeriodEnd !== cancelAtPeriodEnd) {
      await applyPaymentEvent(tx, { provider: 'simulated', eventId: `sim_portal:${newId('billingEvent')}`, scope, event: { type: 'subscription.updated', cancelAtPeriodEnd } });
    }
    return { state: 'done', result: action };
  });
}

/**
 * Simulated provider only: makes the card on file decline (true) from the next charge on, or accept again
 * (false). For demos, tests and the dunning worker's tests; a payment through the portal also fixes it.
 */
export async function setSimulatedCardDeclines(db: Db, scope: Scope, on: boolean): Promise<BillingAccount> {
  return db.transaction(async (tx) => saveAccount(tx, await lockAccount(tx, scope), { simulatedCardDeclines: on }));
}
