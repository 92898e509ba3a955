import { keyOrUserProcedure } from '@/server/api/procedures';
import { createFlow } from '@/server/domain/flows/flows';
import { createFlowMeta, ZCreateFlowRequest, ZCreateFlowResponse } from './create-flow.types';

export const createFlowRoute = keyOrUserProcedure
  .meta(createFlowMeta)
  .input(ZCreateFlowRequest)
  .output(ZCreateFlowResponse)
  .mutation(({ ctx, input }) => createFlow(ctx.services.database.db, ctx.principal, input));
