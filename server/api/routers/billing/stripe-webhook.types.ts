import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';

export const stripeWebhookMeta: OpenApiMeta<ProcedureMeta> = {
  rawBody: true,
  openapi: {
    method: 'POST',
    path: '/billing/webhooks/stripe',
    tags: ['billing'],
    summary: "Stripe's webhook (no bearer): verified with STRIPE_WEBHOOK_SECRET, each event applied once",
    protect: false,
    errorResponses: {
      400: 'The Stripe-Signature header is missing, does not verify, or its timestamp is more than 5 minutes from this server’s clock (either way); nothing is changed',
      404: 'Stripe is not configured on this deployment',
      502: 'Stripe refused a lookup the event needs; nothing is changed and Stripe delivers the event again',
      503: 'Stripe could not be reached for a lookup the event needs; nothing is changed and Stripe delivers the event again',
    },
  },
};
export const ZStripeWebhookRequest = z.looseObject({});
export const ZStripeWebhookResponse = z.object({ received: z.literal(true) }).meta({ id: 'StripeWebhookReceipt' });
