import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';
import { PLANS } from '@/server/domain/ops/tenants';

export const ZTenant = z
  .object({ id: z.string(), name: z.string(), plan: z.enum(PLANS), createdAt: zDateTime })
  .meta({ id: 'Tenant' });
