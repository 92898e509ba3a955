import { keyOrUserProcedure } from '@/server/api/procedures';
import { archiveFlow } from '@/server/domain/flows/flows';
import { archiveFlowMeta, ZArchiveFlowRequest, ZArchiveFlowResponse } from './archive-flow.types';

export const archiveFlowRoute = keyOrUserProcedure
  .meta(archiveFlowMeta)
  .input(ZArchiveFlowRequest)
  .output(ZArchiveFlowResponse)
  .mutation(({ ctx, input }) => archiveFlow(ctx.services.database.db, ctx.principal, input.id));
