import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { PLANS } from '@/server/domain/ops/tenants';
import { ZTenant } from './tenant.types';

export const updateTenantMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'PATCH',
    path: '/ops/tenants/{tenantId}',
    tags: ['ops'],
    summary: "Ops: change a tenant's plan or feature flags (flags merge with the stored ones)",
    errorResponses: { 400: 'Empty body, unknown plan or unknown flag (named in param)', 404: 'No such tenant' },
  },
};
// Strict: a misspelt flag is a 400 naming `features.<name>`, never silently ignored.
export const ZTenantFeatureChanges = z
  .strictObject({ flow_checkout: z.boolean().optional(), flow_ai_freeform_medical: z.boolean().optional() })
  .meta({ id: 'TenantFeatureChanges' });
export const ZUpdateTenantChanges = z.strictObject({ plan: z.enum(PLANS).optional(), features: ZTenantFeatureChanges.optional() });
export const ZUpdateTenantRequest = ZUpdateTenantChanges.extend({ tenantId: zId('Tenant') });
export const ZUpdateTenantResponse = ZTenant;
