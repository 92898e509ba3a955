import { keyOrUserProcedure } from '@/server/api/procedures';
import { listFlows } from '@/server/domain/flows/flows';
import { listFlowsMeta, ZListFlowsRequest, ZListFlowsResponse } from './list-flows.types';

export const listFlowsRoute = keyOrUserProcedure
  .meta(listFlowsMeta)
  .input(ZListFlowsRequest)
  .output(ZListFlowsResponse)
  .query(({ ctx, input }) => listFlows(ctx.services.database.db, ctx.principal, { limit: input.limit, startingAfter: input.starting_after }));
