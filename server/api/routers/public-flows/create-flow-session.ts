import { embedProcedure } from '@/server/api/procedures';
import { createSession } from '@/server/domain/flows/runtime/sessions';
import { createFlowSessionMeta, ZCreateFlowSessionRequest, ZCreateFlowSessionResponse } from './create-flow-session.types';

export const createFlowSessionRoute = embedProcedure
  .meta(createFlowSessionMeta)
  .input(ZCreateFlowSessionRequest)
  .output(ZCreateFlowSessionResponse)
  .mutation(({ ctx, input }) => createSession(ctx.services.database.db, ctx.embed, { variant: input.variant, campaign: input.campaign }));
