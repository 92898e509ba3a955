import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';
import { PLANS } from '@/server/domain/ops/tenants';

export const ZTenantFeatures = z
  .object({ flow_checkout: z.boolean(), flow_ai_freeform_medical: z.boolean() })
  .meta({ id: 'TenantFeatures', description: 'Every feature flag of the tenant; a flag never set is off' });

export const ZTenant = z
  .object({ id: z.string(), name: z.string(), plan: z.enum(PLANS), features: ZTenantFeatures, createdAt: zDateTime })
  .meta({ id: 'Tenant' });
