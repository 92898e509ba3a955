import { describe, expect, it } from 'vitest';
import { DUNNING_STAGES } from '@/db/schema/billing';
import { CHECKOUT_PLANS, PLAN_ORDER_CAPS, PLAN_PRICES_CENTS } from '@/server/domain/billing/plans';
import { billingRefusal } from '@/server/domain/billing/enforcement';
import { isUnhealthy } from '@/server/domain/billing/stages';
import { isUpgrade, planIncludes, priceWords } from '@/components/console/billing/plan-words';
import { returnMessage } from '@/components/console/billing/return-notice';
import { isPastDue, STAGE_WORDS } from '@/components/console/billing/stage-words';

/** The Billing page's and banner's words (no React) agree with the server's rules they describe. */
describe('billing words', () => {
  it('show the banner exactly for the stages the server calls unhealthy', () => {
    for (const stage of DUNNING_STAGES) expect(isPastDue(stage), stage).toBe(isUnhealthy(stage));
  });

  it('say something is paused exactly where enforcement refuses something', () => {
    for (const stage of DUNNING_STAGES) {
      const refuses = (['ai_generation', 'new_experiment', 'new_approval', 'new_flow_session', 'order_create'] as const).some((a) => billingRefusal(stage, a, 'tenant') !== null);
      expect(STAGE_WORDS[stage].paused.length > 0, stage).toBe(refuses);
    }
  });

  it('name each plan’s cap as decision 13 sets it, and its price', () => {
    for (const plan of CHECKOUT_PLANS) {
      const cap = PLAN_ORDER_CAPS[plan];
      expect(planIncludes(plan)).toContain(cap === null ? 'No monthly cap' : cap.toLocaleString('en-US'));
    }
    expect(priceWords(PLAN_PRICES_CENTS.starter)).toBe('$49.00 / month');
    expect(priceWords(0)).toBe('Free');
    expect(priceWords(null)).toBe('Custom pricing');
    expect(isUpgrade('free', 'starter')).toBe(true);
    expect(isUpgrade('scale', 'growth')).toBe(false);
  });

  it('explain the checkout and portal returns', () => {
    expect(returnMessage({ checkout: 'paid' }, 'starter')).toEqual({ tone: 'success', text: 'Payment received, thank you. You are on the Starter plan.' });
    expect(returnMessage({ checkout: 'declined' }, 'free')?.tone).toBe('error');
    expect(returnMessage({ checkout: 'cancelled' }, 'free')?.text).toMatch(/nothing was charged/);
    expect(returnMessage({ portal: 'pay_overdue' }, 'starter')?.text).toMatch(/overdue invoice is paid/);
    expect(returnMessage({ portal: 'cancel_at_period_end' }, 'starter')?.text).toMatch(/returns to Free/);
    expect(returnMessage({ portal: 'something-new' }, 'free')?.text).toMatch(/Back from the billing portal/);
    expect(returnMessage({}, 'free')).toBeNull();
  });
});
