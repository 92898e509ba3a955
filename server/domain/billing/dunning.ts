import { and, asc, eq, isNotNull, lte, notInArray, or } from 'drizzle-orm';
import { billingAccounts } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db, Tx } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { moveStage, saveAccount, type BillingAccount } from './accounts';
import { applyPaymentEvent, type PaymentEvent } from './payment-events';
import { isPlan, PLAN_PRICES_CENTS } from './plans';
import { dunningStageAt, effectiveStage } from './stages';

// A worker that was down for months catches up one period per step; more than this waits for the next tick.
const MAX_STEPS_PER_ACCOUNT = 24;

/** The same day of the next month (UTC), clamped to that month's last day, at the same time of day. */
export function nextMonth(d: Date): Date {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
}

const due = (at: Date) =>
  or(
    lte(billingAccounts.nextActionAt, at),
    // A simulated cancellation at period end happens even when nothing else is scheduled (a suspended account).
    and(eq(billingAccounts.provider, 'simulated'), eq(billingAccounts.cancelAtPeriodEnd, true), isNotNull(billingAccounts.periodEnd), lte(billingAccounts.periodEnd, at)),
  );

/**
 * The billing worker's pass (DESIGN decision 29): every account with something due at `at` is handled in its
 * own transaction, its row taken with SKIP LOCKED so several workers share the work and never both handle
 * one account. Simulated accounts renew and retry here; Stripe renews and retries itself, so for those only
 * the stage moves. Returns how many accounts were handled.
 */
export async function runBillingTick(db: Db, at: Date = now()): Promise<number> {
  const handled: string[] = [];
  for (;;) {
    const id = await db.transaction(async (tx) => {
      // Across tenants on purpose (the worker's own pass, like job claiming); each account is then handled in its scope.
      const [account] = await tx
        .select()
        .from(billingAccounts)
        .where(and(due(at), handled.length ? notInArray(billingAccounts.id, handled) : undefined))
        .orderBy(asc(billingAccounts.nextActionAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!account) return null;
      await advance(tx, account, at);
      return account.id;
    });
    if (!id) return handled.length;
    handled.push(id);
  }
}

/** Takes one account through everything due at `at`, step by step (each step moves it forward in time). */
async function advance(tx: Tx, start: BillingAccount, at: Date): Promise<void> {
  let account = start;
  for (let step = 0; step < MAX_STEPS_PER_ACCOUNT; step++) {
    const next = await stepOnce(tx, account, at);
    if (!next) return;
    account = next;
  }
}

const renewalDue = (a: BillingAccount, at: Date) => a.periodEnd !== null && a.periodEnd <= at && a.status === 'active';
const cancelDue = (a: BillingAccount, at: Date) => a.cancelAtPeriodEnd && a.periodEnd !== null && a.periodEnd <= at;

/**
 * One due action on a locked account; the account after it, or null when nothing more is due. Also what the
 * sandbox test clock runs at each instant it moves through (test-clock.ts).
 */
export async function stepOnce(tx: Tx, account: BillingAccount, at: Date): Promise<BillingAccount | null> {
  const simulated = account.provider === 'simulated';
  if (simulated && cancelDue(account, at)) return apply(tx, account, `sim_cancel:${account.id}:${iso(account.periodEnd)}`, { type: 'subscription.canceled' });
  if (account.firstFailedAt) return dunningStep(tx, account, at);
  if (!account.nextActionAt || account.nextActionAt > at) return null;
  if (simulated && renewalDue(account, at)) return renew(tx, account);
  // Nothing of ours to do (Stripe renews by webhook; a canceled account has nothing scheduled).
  await saveAccount(tx, account, { nextActionAt: null });
  return null;
}

/**
 * A simulated renewal at period end. As with Stripe, the period moves on whether or not the card pays:
 * a declined renewal leaves the new period's invoice past due and starts dunning.
 */
async function renew(tx: Tx, account: BillingAccount): Promise<BillingAccount | null> {
  const periodStart = account.periodEnd!;
  const periodEnd = nextMonth(periodStart);
  const eventId = `sim_renewal:${account.id}:${iso(periodStart)}`;
  if (!account.simulatedCardDeclines) return apply(tx, account, eventId, { type: 'payment.succeeded', periodStart, periodEnd });
  const moved = await apply(tx, account, `${eventId}:period`, { type: 'subscription.updated', periodStart, periodEnd });
  if (!moved) return null;
  const amountDueCents = (isPlan(account.plan) ? PLAN_PRICES_CENTS[account.plan] : null) ?? 0;
  return apply(tx, moved, eventId, { type: 'payment.failed', amountDueCents, attemptCount: 1 });
}

/**
 * A past-due account at a stage boundary: the stage moves to where the dunning clock stands (cause
 * `schedule`), then a simulated account retries the card (attemptCount + 1 while it declines).
 */
async function dunningStep(tx: Tx, account: BillingAccount, at: Date): Promise<BillingAccount | null> {
  if (!account.nextActionAt || account.nextActionAt > at) return null;
  const boundary = account.nextActionAt;
  const { nextActionAt } = dunningStageAt(account.firstFailedAt!, account.graceExtended, at);
  const moved = await moveStage(tx, account, effectiveStage(account, at), 'schedule', { nextActionAt });
  if (account.provider !== 'simulated') return null;
  const retryId = `sim_retry:${account.id}:${iso(account.firstFailedAt)}:${iso(boundary)}`;
  const retry: PaymentEvent = account.simulatedCardDeclines
    ? { type: 'payment.failed', amountDueCents: account.amountDueCents }
    : { type: 'payment.succeeded' };
  await apply(tx, moved, retryId, retry);
  return null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : 'none');

/**
 * Applies a simulated provider event inside the tick's transaction (a savepoint; the account stays locked),
 * under a deterministic event id: a second worker or a rerun of the same tick applies it at most once. Null
 * when it was applied before: the account is left for the next tick rather than stepped again.
 */
async function apply(tx: Tx, account: BillingAccount, eventId: string, event: PaymentEvent): Promise<BillingAccount | null> {
  const scope = { tenantId: account.tenantId, livemode: account.livemode };
  if (!(await applyPaymentEvent(tx, { provider: 'simulated', eventId, scope, event }))) return null;
  const [fresh] = await tx.select().from(billingAccounts).where(scoped(tx, scope).where(billingAccounts, eq(billingAccounts.id, account.id)));
  return fresh ?? null;
}
