import { keyOrUserProcedure } from '@/server/api/procedures';
import { listFlowVersions } from '@/server/domain/flows/flows';
import { listFlowVersionsMeta, ZListFlowVersionsRequest, ZListFlowVersionsResponse } from './list-flow-versions.types';

export const listFlowVersionsRoute = keyOrUserProcedure
  .meta(listFlowVersionsMeta)
  .input(ZListFlowVersionsRequest)
  .output(ZListFlowVersionsResponse)
  .query(({ ctx, input }) => listFlowVersions(ctx.services.database.db, ctx.principal, input.id, { limit: input.limit, startingAfter: input.starting_after }));
