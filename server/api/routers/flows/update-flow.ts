import { keyOrUserProcedure } from '@/server/api/procedures';
import { updateFlow } from '@/server/domain/flows/flows';
import { updateFlowMeta, ZUpdateFlowRequest, ZUpdateFlowResponse } from './update-flow.types';

export const updateFlowRoute = keyOrUserProcedure
  .meta(updateFlowMeta)
  .input(ZUpdateFlowRequest)
  .output(ZUpdateFlowResponse)
  .mutation(({ ctx, input: { id, ...changes } }) => updateFlow(ctx.services.database.db, ctx.principal, id, changes));
