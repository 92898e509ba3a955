import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { BILLING_SCOPE, ZBillingUrl } from './billing.types';

export const createPortalMeta: OpenApiMeta<ProcedureMeta> = {
  scope: BILLING_SCOPE,
  openapi: {
    method: 'POST',
    path: '/billing/portal',
    tags: ['billing'],
    summary: "Open the payment provider's billing portal (payment method, overdue invoice, cancellation); redirect to the returned url",
    errorResponses: {
      403: 'Missing billing.manage',
      409: 'no_billing_customer: the account never checked out, so there is nothing to manage yet',
      502: 'payment_provider_error: Stripe refused this deployment’s own request (keys, prices); nothing was changed',
      503: 'payment_provider_unavailable: Stripe could not be reached (or failed on its side); retry after the Retry-After header’s seconds; nothing was changed',
    },
  },
};
export const ZCreatePortalRequest = z.strictObject({});
export const ZCreatePortalResponse = ZBillingUrl;
