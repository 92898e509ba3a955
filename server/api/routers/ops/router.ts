import { router } from '@/server/api/trpc';
import { createTenantRoute } from './create-tenant';
import { createTenantUserRoute } from './create-tenant-user';
import { extendGraceRoute } from './extend-grace';
import { listTenantsRoute } from './list-tenants';
import { updateTenantRoute } from './update-tenant';
import { verifyLicensesRoute } from './verify-licenses';
import { verifyNpiRoute } from './verify-npi';

export const opsRouter = router({
  createTenant: createTenantRoute,
  listTenants: listTenantsRoute,
  updateTenant: updateTenantRoute,
  createTenantUser: createTenantUserRoute,
  verifyNpi: verifyNpiRoute,
  verifyLicenses: verifyLicensesRoute,
  extendGrace: extendGraceRoute,
});
