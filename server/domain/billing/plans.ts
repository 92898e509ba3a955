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
