import type { DunningStage, PaymentsProviderKind, SubscriptionStatus } from '@/db/schema/billing';
import type { Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { requireTenant } from '@/server/domain/ops/tenants';
import { now } from '@/server/lib/clock';
import { listStageChanges, readAccount, type BillingAccount } from './accounts';
import { CHECKOUT_PLANS, isPlan, PLAN_PRICES_CENTS, type CheckoutPlan } from './plans';
import { decisionFor, dunningStageAt, effectiveStage, type BillingDecision } from './stages';

/** The spec's "Billing health", exactly its fields. */
export interface BillingHealth {
  stage: DunningStage;
  decision: BillingDecision;
  amountDueCents: number;
  nextActionAt: string | null;
  attemptCount: number;
  graceExtended: boolean;
}

export interface Billing {
  object: 'billing';
  livemode: boolean;
  plan: string;
  priceCents: number | null;
  currency: 'usd';
  provider: PaymentsProviderKind;
  status: SubscriptionStatus;
  period: { start: string; end: string } | null;
  cancelAtPeriodEnd: boolean;
  health: BillingHealth;
  checkoutPlans: { plan: CheckoutPlan; priceCents: number }[];
  stageHistory: { from: DunningStage; to: DunningStage; cause: string; at: string }[];
  /** Sandbox only (null in live): how far the sandbox billing clock was moved forward (test-clock.ts). */
  testClock: { advancedDays: number } | null;
}

/**
 * Health as of `at`, read from the dunning clock while a payment is past due (not the stored stage), so a
 * worker running late never shows a clinic a kinder stage than the one enforced.
 */
export function healthOf(account: BillingAccount, at: Date = now()): BillingHealth {
  const stage = effectiveStage(account, at);
  const next = account.firstFailedAt ? dunningStageAt(account.firstFailedAt, account.graceExtended, at).nextActionAt : account.nextActionAt;
  return {
    stage,
    decision: decisionFor(stage),
    amountDueCents: account.amountDueCents,
    nextActionAt: next ? next.toISOString() : null,
    attemptCount: account.attemptCount,
    graceExtended: account.graceExtended,
  };
}

export async function getBillingHealth(q: Queryable, scope: Scope, at: Date = now()): Promise<BillingHealth> {
  return healthOf(await readAccount(q, scope), at);
}

const priceOf = (plan: string) => (isPlan(plan) ? PLAN_PRICES_CENTS[plan] : null);

/**
 * The caller's plan, subscription and health. Live: the plan is the tenant's (ops may set it directly, e.g.
 * enterprise), the provider the account's. Sandbox: the rehearsal account's plan, always simulated.
 */
export async function getBilling(q: Queryable, scope: Scope, at: Date = now()): Promise<Billing> {
  const [tenant, account, changes] = await Promise.all([
    requireTenant(q, scope.tenantId),
    readAccount(q, scope),
    listStageChanges(q, scope),
  ]);
  const plan = scope.livemode ? tenant.plan : account.plan;
  return {
    object: 'billing',
    livemode: scope.livemode,
    plan,
    priceCents: priceOf(plan),
    currency: 'usd',
    provider: scope.livemode ? account.provider : 'simulated',
    status: account.status,
    period: account.periodStart && account.periodEnd ? { start: account.periodStart.toISOString(), end: account.periodEnd.toISOString() } : null,
    cancelAtPeriodEnd: account.cancelAtPeriodEnd,
    health: healthOf(account, at),
    checkoutPlans: CHECKOUT_PLANS.map((p) => ({ plan: p, priceCents: PLAN_PRICES_CENTS[p] ?? 0 })),
    // Newest first; changes recorded at the same instant keep their id (creation) order.
    stageHistory: changes
      .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1))
      .map((c) => ({ from: c.fromStage, to: c.toStage, cause: c.cause, at: c.at.toISOString() })),
    testClock: scope.livemode ? null : { advancedDays: account.testClockDays },
  };
}
