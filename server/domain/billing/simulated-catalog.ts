import { PLAN_PRICES_CENTS, type CheckoutPlan } from './plans';

/**
 * The simulated provider's coupons (Stripe's are promotion codes kept in Stripe). Deliberately tiny, for demos
 * and tests: each takes its percentage off the checkout's charge, i.e. the first month; renewals are charged
 * the list price. Codes are matched case-insensitively, as Stripe matches promotion codes.
 */
export const SIMULATED_COUPONS: Readonly<Record<string, { percentOff: number; description: string }>> = {
  WELCOME20: { percentOff: 20, description: '20% off the first month' },
  LAUNCH50: { percentOff: 50, description: '50% off the first month' },
};

export function findSimulatedCoupon(code: string): { code: string; percentOff: number; description: string } | null {
  const key = code.trim().toUpperCase();
  const coupon = Object.hasOwn(SIMULATED_COUPONS, key) ? SIMULATED_COUPONS[key] : undefined;
  return coupon ? { code: key, ...coupon } : null;
}

/** The plan's monthly list price in cents (every checkout plan has one). */
export function listPriceCents(plan: CheckoutPlan): number {
  return PLAN_PRICES_CENTS[plan] ?? 0;
}

/** What the checkout charges: the list price less the coupon, rounded to the cent. */
export function checkoutChargeCents(plan: CheckoutPlan, percentOff: number): number {
  return Math.round((listPriceCents(plan) * (100 - percentOff)) / 100);
}
