import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZRoutingPolicy, ZSetRoutingPolicy } from './pharmacy.types';

export const setRoutingPolicyMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'pharmacies.manage',
  openapi: {
    method: 'POST',
    path: '/pharmacies/routing-policy',
    tags: ['pharmacies'],
    summary: "Set this mode's routing policy (fields not sent keep their value)",
    errorResponses: { 400: 'Unknown strategy, or a priority id that is not a connection of this tenant and mode (param names it)' },
  },
};
export const ZSetRoutingPolicyRequest = ZSetRoutingPolicy;
export const ZSetRoutingPolicyResponse = ZRoutingPolicy;
