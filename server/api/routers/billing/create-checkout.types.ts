import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { CHECKOUT_PLANS } from '@/server/domain/billing/plans';
import { BILLING_SCOPE, ZBillingUrl } from './billing.types';

export const createCheckoutMeta: OpenApiMeta<ProcedureMeta> = {
  scope: BILLING_SCOPE,
  openapi: {
    method: 'POST',
    path: '/billing/checkout',
    tags: ['billing'],
    summary: 'Start a checkout for a self-serve plan; redirect the person to the returned url',
    description:
      'Sandbox always uses the simulated provider (a local page where one pays or declines). Live uses Stripe Checkout (subscription mode) when the deployment configures Stripe, else the simulated provider. A paid checkout moves the plan at once.',
    errorResponses: {
      400: 'plan is not starter, growth or scale (param plan), or couponCode is unknown (param couponCode)',
      403: 'Missing billing.manage',
      409: 'plan_already_active: the account already has this plan (pay or cancel it in the portal instead)',
      502: 'payment_provider_error: Stripe refused this deployment’s own request (keys, prices); nothing was changed',
      503: 'payment_provider_unavailable: Stripe could not be reached (or failed on its side); retry after the Retry-After header’s seconds; nothing was changed',
    },
  },
};
export const ZCreateCheckoutRequest = z.strictObject({
  plan: z.enum(CHECKOUT_PLANS, { error: 'plan must be one of starter, growth or scale' }).meta({ description: 'starter, growth or scale; other tiers are not checkout-able' }),
  couponCode: z.string().trim().min(1).max(64).optional().meta({ description: 'A coupon (Stripe: a promotion code) to apply' }),
});
export const ZCreateCheckoutResponse = ZBillingUrl;
