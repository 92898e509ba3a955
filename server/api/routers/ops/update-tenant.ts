import { opsProcedure } from '@/server/api/procedures';
import { updateTenant } from '@/server/domain/ops/tenants';
import { updateTenantMeta, ZUpdateTenantRequest, ZUpdateTenantResponse } from './update-tenant.types';

export const updateTenantRoute = opsProcedure
  .meta(updateTenantMeta)
  .input(ZUpdateTenantRequest)
  .output(ZUpdateTenantResponse)
  .mutation(({ ctx, input: { tenantId, ...changes } }) => updateTenant(ctx.services.database.db, tenantId, changes));
