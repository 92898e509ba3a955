import { opsProcedure } from '@/server/api/procedures';
import { listTenants } from '@/server/domain/ops/tenants';
import { listTenantsMeta, ZListTenantsRequest, ZListTenantsResponse } from './list-tenants.types';

export const listTenantsRoute = opsProcedure
  .meta(listTenantsMeta)
  .input(ZListTenantsRequest)
  .output(ZListTenantsResponse)
  .query(({ ctx }) => listTenants(ctx.services.database.db));
