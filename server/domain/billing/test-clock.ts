import { sql } from 'drizzle-orm';
import { billingStageChanges } from '@/db/schema';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Tx } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { AppError } from '@/server/lib/errors';
import { lockAccount, saveAccount, type BillingAccount } from './accounts';
import { stepOnce } from './dunning';
import { getBilling, type Billing } from './health';

const DAY_MS = 86_400_000;
/** The most one call may move the clock: a year holds twelve renewals and a whole dunning cycle. */
export const MAX_TEST_CLOCK_DAYS = 365;
// Far above what a year can hold (twelve renewals, four dunning steps); a bound, not a budget.
const MAX_STEPS = 200;

/** The account's instants, which the sandbox clock moves. */
const INSTANTS = ['periodStart', 'periodEnd', 'stageChangedAt', 'firstFailedAt', 'nextActionAt', 'graceExtendedAt'] as const;

/** The first instant at which something is due on the account: its next action, or a simulated cancellation at period end. */
function nextDueAt(a: BillingAccount): number | null {
  const candidates = [a.nextActionAt, a.provider === 'simulated' && a.cancelAtPeriodEnd ? a.periodEnd : null].filter((d): d is Date => d !== null);
  return candidates.length ? Math.min(...candidates.map((d) => d.getTime())) : null;
}

/**
 * Moves the account `ms` into the future by moving every instant it holds, and its stage history, `ms` into
 * the past: every reader, which judges the account at the process clock, then sees it as it stands `ms` later.
 */
async function shiftBack(tx: Tx, account: BillingAccount, ms: number): Promise<BillingAccount> {
  if (ms <= 0) return account;
  const changes: Partial<BillingAccount> = {};
  for (const k of INSTANTS) {
    const d = account[k];
    if (d) changes[k] = new Date(d.getTime() - ms);
  }
  const scope: Scope = { tenantId: account.tenantId, livemode: account.livemode };
  await tx
    .update(billingStageChanges)
    .set({ at: sql`${billingStageChanges.at} - make_interval(secs => ${ms / 1000}::double precision)` })
    .where(scoped(tx, scope).where(billingStageChanges));
  return saveAccount(tx, account, changes);
}

/**
 * `POST /v1/billing/test-clock/advance` (DESIGN decision 35; Stripe's test clocks are the model): moves the
 * caller's sandbox billing clock `days` forward and runs, in order and each at its own instant, every renewal
 * and dunning step that falls due on the way, exactly as the billing worker would have, all in one transaction.
 *
 * How it composes with the process clock (server/lib/clock.ts): the sandbox clock is the process clock plus the
 * days advanced so far, and it is kept by moving the account's own instants (period, first failure, next
 * action, stage changes) back by the same amount, so that every reader (enforcement, health, the banner, the
 * order insert's suspension check, the worker) keeps judging at the process clock and needs no second clock.
 * To pass an instant that falls due, the account is moved so that the instant is now, and the step runs then:
 * a renewal declined at the period's end starts dunning at that end, not at the end of the advance.
 * Live billing has no clock to move: 404.
 */
export async function advanceTestClock(db: Db, principal: TenantPrincipal, days: number): Promise<Billing> {
  if (principal.livemode) {
    throw new AppError('not_found', 'resource_missing', 404, 'Live billing has no test clock: only the sandbox account can be moved forward in time. Use a sandbox key (or the console in sandbox mode).');
  }
  const scope: Scope = { tenantId: principal.tenantId, livemode: false };
  await db.transaction(async (tx) => {
    let account = await lockAccount(tx, scope);
    let remaining = days * DAY_MS;
    for (let step = 0; step < MAX_STEPS; step++) {
      const due = nextDueAt(account);
      const wait = due === null ? Infinity : Math.max(0, due - now().getTime());
      if (wait > remaining) break;
      account = await shiftBack(tx, account, wait);
      remaining -= wait;
      account = (await stepOnce(tx, account, now())) ?? (await lockAccount(tx, scope));
    }
    account = await shiftBack(tx, account, remaining);
    await saveAccount(tx, account, { testClockDays: account.testClockDays + days });
  });
  return getBilling(db, scope);
}
