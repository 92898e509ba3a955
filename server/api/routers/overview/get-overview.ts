import { keyOrUserProcedure } from '@/server/api/procedures';
import { getOverview } from '@/server/domain/overview/overview';
import { consoleOverviewMeta, ZConsoleOverviewRequest, ZConsoleOverviewResponse } from './get-overview.types';

export const consoleOverviewRoute = keyOrUserProcedure
  .meta(consoleOverviewMeta)
  .input(ZConsoleOverviewRequest)
  .output(ZConsoleOverviewResponse)
  .query(({ ctx }) => getOverview(ctx.services.database.db, ctx.principal));
