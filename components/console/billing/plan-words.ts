import { formatCents } from '../catalog/catalog-ui';
import type { Billing } from './billing-types';

/**
 * What each plan includes, for choosing one. The caps repeat DESIGN decision 13 (the server's PLAN_ORDER_CAPS):
 * the console may not import the domain, and the Billing object carries prices, not caps.
 */
const PLAN_INCLUDES: Record<string, string> = {
  free: 'Up to 25 live orders a month',
  starter: 'Up to 250 live orders a month',
  growth: 'Up to 2,500 live orders a month',
  scale: 'No monthly cap on live orders',
  enterprise: 'No monthly cap on live orders, custom terms',
};
export const planIncludes = (plan: string) => PLAN_INCLUDES[plan] ?? '';

const PLAN_ORDER = ['free', 'starter', 'growth', 'scale', 'enterprise'];
/** Whether moving from `current` to `plan` is an upgrade (a bigger plan), for the button's word. */
export const isUpgrade = (current: string, plan: string) => PLAN_ORDER.indexOf(plan) > PLAN_ORDER.indexOf(current);

export const planName = (plan: string) => plan.charAt(0).toUpperCase() + plan.slice(1);

/** A plan's price as a clinic reads it: "Free", "$49.00 / month", or "Custom pricing". */
export function priceWords(priceCents: number | null): string {
  if (priceCents === null) return 'Custom pricing';
  return priceCents === 0 ? 'Free' : `${formatCents(priceCents)} / month`;
}

const STATUS: Record<Billing['status'], string> = {
  none: 'No subscription',
  active: 'Active',
  past_due: 'Past due',
  canceled: 'Canceled',
};
export const statusWords = (status: Billing['status']) => STATUS[status];
