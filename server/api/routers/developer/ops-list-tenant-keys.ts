import { opsProcedure } from '@/server/api/procedures';
import { listApiKeys } from '@/server/domain/developer/api-keys';
import { requireTenant } from '@/server/domain/ops/tenants';
import { opsListTenantKeysMeta, ZOpsListTenantKeysRequest, ZOpsListTenantKeysResponse } from './ops-list-tenant-keys.types';

export const opsListTenantKeysRoute = opsProcedure
  .meta(opsListTenantKeysMeta)
  .input(ZOpsListTenantKeysRequest)
  .output(ZOpsListTenantKeysResponse)
  .query(async ({ ctx, input }) => {
    const db = ctx.services.database.db;
    await requireTenant(db, input.tenantId);
    return listApiKeys(db, { tenantId: input.tenantId, livemode: true });
  });
