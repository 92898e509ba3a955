import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { BILLING_SCOPE, ZBilling } from './billing.types';

export const getBillingMeta: OpenApiMeta<ProcedureMeta> = {
  scope: BILLING_SCOPE,
  openapi: {
    method: 'GET',
    path: '/billing',
    tags: ['billing'],
    summary: "The tenant's plan, subscription status, period, price and billing health",
    errorResponses: { 403: 'Missing billing.manage' },
  },
};
export const ZGetBillingRequest = z.object({});
export const ZGetBillingResponse = ZBilling;
