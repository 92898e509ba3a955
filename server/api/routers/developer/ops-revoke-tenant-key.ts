import { opsProcedure } from '@/server/api/procedures';
import { revokeApiKey } from '@/server/domain/developer/api-keys';
import { requireTenant } from '@/server/domain/ops/tenants';
import { opsRevokeTenantKeyMeta, ZOpsRevokeTenantKeyRequest, ZOpsRevokeTenantKeyResponse } from './ops-revoke-tenant-key.types';

export const opsRevokeTenantKeyRoute = opsProcedure
  .meta(opsRevokeTenantKeyMeta)
  .input(ZOpsRevokeTenantKeyRequest)
  .output(ZOpsRevokeTenantKeyResponse)
  .mutation(async ({ ctx, input }) => {
    const db = ctx.services.database.db;
    await requireTenant(db, input.tenantId);
    return revokeApiKey(db, { tenantId: input.tenantId, livemode: true }, input.id);
  });
