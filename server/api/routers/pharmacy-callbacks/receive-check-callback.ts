import { publicProcedure } from '@/server/api/procedures';
import { receiveCheckCallback } from '@/server/domain/pharmacies/verify';
import { receiveCheckCallbackMeta, ZReceiveCheckCallbackRequest, ZReceiveCheckCallbackResponse } from './receive-check-callback.types';

export const receiveCheckCallbackRoute = publicProcedure
  .meta(receiveCheckCallbackMeta)
  .input(ZReceiveCheckCallbackRequest)
  .output(ZReceiveCheckCallbackResponse)
  .mutation(({ ctx, input }) => receiveCheckCallback(ctx.services.database.db, input.runId, { headers: ctx.req.headers, rawBody: ctx.state.rawBody }));
