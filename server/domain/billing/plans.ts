import { PLANS, type Plan } from '@/server/domain/ops/tenants';

/** Live orders a plan may route per calendar month (UTC); null means uncapped (DESIGN decision 13). */
export const PLAN_ORDER_CAPS: Readonly<Record<Plan, number | null>> = {
  free: 25,
  starter: 250,
  growth: 2500,
  scale: null,
  enterprise: null,
};

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/**
 * The monthly order cap of a plan. A plan key this code does not know (a stray database value) gets the
 * free tier's cap: failing closed never hands out unlimited live volume by accident.
 */
export function orderCapFor(plan: string): number | null {
  return isPlan(plan) ? PLAN_ORDER_CAPS[plan] : PLAN_ORDER_CAPS.free;
}

/** The plans a clinic can buy itself (spec "Limits — self-serve checkout plans"); enterprise is sold by people. */
export const CHECKOUT_PLANS = ['starter', 'growth', 'scale'] as const;
export type CheckoutPlan = (typeof CHECKOUT_PLANS)[number];

/** List prices per month in US cents, shown on the Billing page and charged by the simulated provider; null = quoted. */
export const PLAN_PRICES_CENTS: Readonly<Record<Plan, number | null>> = {
  free: 0,
  starter: 4_900,
  growth: 19_900,
  scale: 59_900,
  enterprise: null,
};
