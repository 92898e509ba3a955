import { keyOrUserProcedure } from '@/server/api/procedures';
import { getUsage } from '@/server/domain/billing/usage';
import { getUsageMeta, ZGetUsageRequest, ZUsage } from './get-usage.types';

export const getUsageRoute = keyOrUserProcedure
  .meta(getUsageMeta)
  .input(ZGetUsageRequest)
  .output(ZUsage)
  .query(({ ctx }) => getUsage(ctx.services.database.db, ctx.principal));
