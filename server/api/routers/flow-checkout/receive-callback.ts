import { publicProcedure } from '@/server/api/procedures';
import { receiveCheckoutCallback } from '@/server/domain/flows/checkout-callback';
import { receiveCheckoutCallbackMeta, ZReceiveCheckoutCallbackRequest, ZReceiveCheckoutCallbackResponse } from './receive-callback.types';

export const receiveCheckoutCallbackRoute = publicProcedure
  .meta(receiveCheckoutCallbackMeta)
  .input(ZReceiveCheckoutCallbackRequest)
  .output(ZReceiveCheckoutCallbackResponse)
  .mutation(({ ctx, input }) => receiveCheckoutCallback(ctx.services.database.db, input.flowId, { headers: ctx.req.headers, rawBody: ctx.state.rawBody }));
