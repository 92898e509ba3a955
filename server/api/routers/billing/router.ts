import { router } from '@/server/api/trpc';
import { advanceTestClockRoute } from './advance-test-clock';
import { createCheckoutRoute } from './create-checkout';
import { createPortalRoute } from './create-portal';
import { getBillingRoute } from './get-billing';
import { getBillingHealthRoute } from './get-billing-health';
import { stripeWebhookRoute } from './stripe-webhook';
import { consoleBillingBannerRoute } from './billing-banner';

export const billingRouter = router({
  get: getBillingRoute,
  health: getBillingHealthRoute,
  checkout: createCheckoutRoute,
  portal: createPortalRoute,
  stripeWebhook: stripeWebhookRoute,
  advanceTestClock: advanceTestClockRoute,
  banner: consoleBillingBannerRoute,
});
