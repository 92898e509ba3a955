import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { BILLING_SCOPE, ZBillingHealth } from './billing.types';

export const getBillingHealthMeta: OpenApiMeta<ProcedureMeta> = {
  scope: BILLING_SCOPE,
  openapi: {
    method: 'GET',
    path: '/billing/health',
    tags: ['billing'],
    summary: 'Billing health: the dunning stage and the routing decision it implies',
    errorResponses: { 403: 'Missing billing.manage' },
  },
};
export const ZGetBillingHealthRequest = z.object({});
export const ZGetBillingHealthResponse = ZBillingHealth;
