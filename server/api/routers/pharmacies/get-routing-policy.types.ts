import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZRoutingPolicy } from './pharmacy.types';

export const getRoutingPolicyMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'pharmacies.manage',
  openapi: { method: 'GET', path: '/pharmacies/routing-policy', tags: ['pharmacies'], summary: "This mode's routing policy (the defaults until one is set)" },
};
export const ZGetRoutingPolicyRequest = z.object({});
export const ZGetRoutingPolicyResponse = ZRoutingPolicy;
