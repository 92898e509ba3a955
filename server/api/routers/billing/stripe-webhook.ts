import { publicProcedure } from '@/server/api/procedures';
import { receiveStripeWebhook } from '@/server/domain/billing/stripe-webhook';
import { stripeWebhookMeta, ZStripeWebhookRequest, ZStripeWebhookResponse } from './stripe-webhook.types';

const firstHeader = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export const stripeWebhookRoute = publicProcedure
  .meta(stripeWebhookMeta)
  .input(ZStripeWebhookRequest)
  .output(ZStripeWebhookResponse)
  .mutation(({ ctx }) =>
    receiveStripeWebhook(ctx.services.database.db, ctx.services.payments, { rawBody: ctx.state.rawBody, signature: firstHeader(ctx.req.headers['stripe-signature']) }),
  );
