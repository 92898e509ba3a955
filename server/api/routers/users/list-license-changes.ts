import { keyOrUserProcedure } from '@/server/api/procedures';
import { licenseHistory } from '@/server/domain/auth/licenses';
import { listLicenseChangesMeta, ZListLicenseChangesRequest, ZListLicenseChangesResponse } from './list-license-changes.types';

export const listLicenseChangesRoute = keyOrUserProcedure
  .meta(listLicenseChangesMeta)
  .input(ZListLicenseChangesRequest)
  .output(ZListLicenseChangesResponse)
  .query(async ({ ctx, input }) => ({ object: 'list' as const, data: await licenseHistory(ctx.services.database.db, ctx.principal.tenantId, input.id) }));
