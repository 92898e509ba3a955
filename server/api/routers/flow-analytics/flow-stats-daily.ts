import { keyOrUserProcedure } from '@/server/api/procedures';
import { flowDailySeries } from '@/server/domain/flows/stats';
import { now } from '@/server/lib/clock';
import { flowStatsDailyMeta, ZFlowStatsDailyRequest, ZFlowStatsDailyResponse } from './flow-stats-daily.types';

export const flowStatsDailyRoute = keyOrUserProcedure
  .meta(flowStatsDailyMeta)
  .input(ZFlowStatsDailyRequest)
  .output(ZFlowStatsDailyResponse)
  .query(({ ctx, input }) => flowDailySeries(ctx.services.database.db, ctx.principal, input.flowId, { from: input.from, to: input.to }, now()));
