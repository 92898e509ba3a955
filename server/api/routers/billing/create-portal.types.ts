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
    },
  },
};
export const ZCreatePortalRequest = z.strictObject({});
export const ZCreatePortalResponse = ZBillingUrl;
