import { embedProcedure } from '@/server/api/procedures';
import { submitSession } from '@/server/domain/flows/runtime/submit';
import { submitFlowSessionMeta, ZSubmitFlowSessionRequest, ZSubmitFlowSessionResponse } from './submit-flow-session.types';

export const submitFlowSessionRoute = embedProcedure
  .meta(submitFlowSessionMeta)
  .input(ZSubmitFlowSessionRequest)
  .output(ZSubmitFlowSessionResponse)
  .mutation(({ ctx, input }) => submitSession(ctx.services.database.db, ctx.embed, input.id, { patient: input.patient }, ctx.state.requestId));
