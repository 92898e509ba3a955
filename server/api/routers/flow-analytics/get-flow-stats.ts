import { keyOrUserProcedure } from '@/server/api/procedures';
import { flowStats } from '@/server/domain/flows/stats';
import { getFlowStatsMeta, ZGetFlowStatsRequest, ZGetFlowStatsResponse } from './get-flow-stats.types';

export const getFlowStatsRoute = keyOrUserProcedure
  .meta(getFlowStatsMeta)
  .input(ZGetFlowStatsRequest)
  .output(ZGetFlowStatsResponse)
  .query(({ ctx, input }) => flowStats(ctx.services.database.db, ctx.principal, input.id, { from: input.from, to: input.to, versionId: input.versionId }));
