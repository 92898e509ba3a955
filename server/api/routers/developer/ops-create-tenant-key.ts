import { opsProcedure } from '@/server/api/procedures';
import { createApiKey } from '@/server/domain/developer/api-keys';
import { requireTenant } from '@/server/domain/ops/tenants';
import { opsCreateTenantKeyMeta, ZOpsCreateTenantKeyRequest, ZOpsCreateTenantKeyResponse } from './ops-create-tenant-key.types';

export const opsCreateTenantKeyRoute = opsProcedure
  .meta(opsCreateTenantKeyMeta)
  .input(ZOpsCreateTenantKeyRequest)
  .output(ZOpsCreateTenantKeyResponse)
  .mutation(async ({ ctx, input }) => {
    const db = ctx.services.database.db;
    const { tenantId, ...body } = input;
    await requireTenant(db, tenantId);
    return createApiKey(db, ctx.principal, tenantId, body);
  });
