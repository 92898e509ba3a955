import { router } from '@/server/api/trpc';
import { createApiKeyRoute } from './create-api-key';
import { getUsageRoute } from './get-usage';
import { listApiKeysRoute } from './list-api-keys';
import { opsCreateTenantKeyRoute } from './ops-create-tenant-key';
import { opsListTenantKeysRoute } from './ops-list-tenant-keys';
import { opsRevokeTenantKeyRoute } from './ops-revoke-tenant-key';
import { revokeApiKeyRoute } from './revoke-api-key';
import { consoleListApiKeysRoute } from './api-keys-with-creators';
import { consoleUsageRoutedDailyRoute } from './usage-routed-daily';

// The ops paths are registered first: the first matching path wins.
export const developerRouter = router({
  opsListTenantKeys: opsListTenantKeysRoute,
  opsCreateTenantKey: opsCreateTenantKeyRoute,
  opsRevokeTenantKey: opsRevokeTenantKeyRoute,
  listApiKeys: listApiKeysRoute,
  createApiKey: createApiKeyRoute,
  revokeApiKey: revokeApiKeyRoute,
  getUsage: getUsageRoute,
  apiKeysWithCreators: consoleListApiKeysRoute,
  billableRoutedDaily: consoleUsageRoutedDailyRoute,
});
