import { router } from '@/server/api/trpc';
import { createTenantRoute } from './create-tenant';
import { listTenantsRoute } from './list-tenants';

export const opsRouter = router({ createTenant: createTenantRoute, listTenants: listTenantsRoute });
