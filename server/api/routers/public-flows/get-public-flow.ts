import { embedProcedure } from '@/server/api/procedures';
import { getPublicFlow } from '@/server/domain/flows/runtime/sessions';
import { getPublicFlowMeta, ZGetPublicFlowRequest, ZGetPublicFlowResponse } from './get-public-flow.types';

export const getPublicFlowRoute = embedProcedure
  .meta(getPublicFlowMeta)
  .input(ZGetPublicFlowRequest)
  .output(ZGetPublicFlowResponse)
  .query(({ ctx }) => getPublicFlow(ctx.services.database.db, ctx.embed));
