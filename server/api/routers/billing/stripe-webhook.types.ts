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
      400: 'The Stripe-Signature header is missing or does not verify; nothing is changed',
      404: 'Stripe is not configured on this deployment',
    },
  },
};
export const ZStripeWebhookRequest = z.looseObject({});
export const ZStripeWebhookResponse = z.object({ received: z.literal(true) }).meta({ id: 'StripeWebhookReceipt' });
