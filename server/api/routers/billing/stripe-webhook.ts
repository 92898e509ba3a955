import { publicProcedure } from '@/server/api/procedures';
import { AppError } from '@/server/lib/errors';
import { stripeWebhookMeta, ZStripeWebhookRequest, ZStripeWebhookResponse } from './stripe-webhook.types';

// PLACEHOLDER (issue 25 foundation): replaced by its owner.
export const stripeWebhookRoute = publicProcedure
  .meta(stripeWebhookMeta)
  .input(ZStripeWebhookRequest)
  .output(ZStripeWebhookResponse)
  .mutation(() => {
    throw new AppError('api_error', 'not_implemented', 501, 'Not built yet.');
  });
