import { opsProcedure } from '@/server/api/procedures';
import { createTenant } from '@/server/domain/ops/tenants';
import { createTenantMeta, ZCreateTenantRequest, ZCreateTenantResponse } from './create-tenant.types';

export const createTenantRoute = opsProcedure
  .meta(createTenantMeta)
  .input(ZCreateTenantRequest)
  .output(ZCreateTenantResponse)
  .mutation(({ ctx, input }) => createTenant(ctx.services.database.db, input));
