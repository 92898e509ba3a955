import { keyOrUserProcedure } from '@/server/api/procedures';
import { getFlow } from '@/server/domain/flows/flows';
import { getFlowMeta, ZGetFlowRequest, ZGetFlowResponse } from './get-flow.types';

export const getFlowRoute = keyOrUserProcedure
  .meta(getFlowMeta)
  .input(ZGetFlowRequest)
  .output(ZGetFlowResponse)
  .query(({ ctx, input }) => getFlow(ctx.services.database.db, ctx.principal, input.id));
