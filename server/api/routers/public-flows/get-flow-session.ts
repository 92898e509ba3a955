import { embedProcedure } from '@/server/api/procedures';
import { getSessionView } from '@/server/domain/flows/runtime/sessions';
import { getFlowSessionMeta, ZGetFlowSessionRequest, ZGetFlowSessionResponse } from './get-flow-session.types';

export const getFlowSessionRoute = embedProcedure
  .meta(getFlowSessionMeta)
  .input(ZGetFlowSessionRequest)
  .output(ZGetFlowSessionResponse)
  .query(({ ctx, input }) => getSessionView(ctx.services.database.db, ctx.embed, input.id));
