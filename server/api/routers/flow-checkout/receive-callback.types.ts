import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';

export const receiveCheckoutCallbackMeta: OpenApiMeta<ProcedureMeta> = {
  rawBody: true,
  openapi: {
    method: 'POST',
    path: '/flows/checkout-callbacks/{flowId}',
    tags: ['flows'],
    summary: "The clinic store's checkout-completed callback, signed Standard Webhooks-style with the flow's checkout secret (no bearer)",
    description:
      "Body `{type: 'checkout.completed', frToken, externalOrderId}`: `frToken` is the `fr_token` query parameter of the `checkoutUrl` the patient arrived with; `externalOrderId` is the store's order id (1–128 of `A-Z a-z 0-9 . _ : -`). Headers `webhook-id`, `webhook-timestamp` (within five minutes) and `webhook-signature`, keyed by the checkout secret of the flow's published version (a `whsec_` secret is base64-decoded as Standard Webhooks libraries do; any other string is used as its UTF-8 bytes). Emits `flow.checkout.completed` once; a repeat with the same `externalOrderId` answers 200 and changes nothing. The store's id becomes the `foreignOrderId` of the order a provider approves for the run (at once if it exists). Needs the `flow_checkout` feature.",
    protect: false,
    errorResponses: {
      400: 'The body does not match, or frToken does not verify or has expired',
      401: 'The signature is missing, does not verify, or its timestamp is stale',
      403: 'The flow_checkout feature is off for this clinic',
      404: 'No such flow, or the token names no session of it',
      409: 'No checkout setting, a run that was not eligible, or another externalOrderId already recorded',
    },
  },
};
export const ZReceiveCheckoutCallbackRequest = z.looseObject({ flowId: zId('Flow') });
export const ZReceiveCheckoutCallbackResponse = z
  .object({ ok: z.literal(true).meta({ description: 'The checkout is recorded (now or by an earlier delivery)' }) })
  .meta({ id: 'CheckoutCallbackReceipt' });
