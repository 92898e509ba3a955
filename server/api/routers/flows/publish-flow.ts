import { keyOrUserProcedure } from '@/server/api/procedures';
import { publishFlow } from '@/server/domain/flows/publish';
import { deliveryOptions } from '@/server/domain/webhooks/options';
import { publishFlowMeta, ZPublishFlowRequest, ZPublishFlowResponse } from './publish-flow.types';

export const publishFlowRoute = keyOrUserProcedure
  .meta(publishFlowMeta)
  .input(ZPublishFlowRequest)
  .output(ZPublishFlowResponse)
  .mutation(({ ctx, input }) => publishFlow(ctx.services.database.db, ctx.principal, input.id, deliveryOptions(ctx.services.config).policy));
