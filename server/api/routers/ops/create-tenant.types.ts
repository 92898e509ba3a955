import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { PLANS } from '@/server/domain/ops/tenants';
import { ZTenant } from './tenant.types';

export const createTenantMeta: OpenApiMeta<ProcedureMeta> = {
  successStatus: 201,
  openapi: { method: 'POST', path: '/ops/tenants', tags: ['ops'], summary: 'Ops: create a tenant (clinic)' },
};
export const ZCreateTenantRequest = z.strictObject({
  name: z.string().trim().min(1).max(200),
  plan: z.enum(PLANS).default('free'),
});
export const ZCreateTenantResponse = ZTenant;
