import { publicProcedure } from '@/server/api/procedures';
import { receiveCallback } from '@/server/domain/orders/callbacks';
import { deliveryOptions } from '@/server/domain/webhooks/options';
import { receiveCallbackMeta, ZReceiveCallbackRequest, ZReceiveCallbackResponse } from './receive-callback.types';

export const receiveCallbackRoute = publicProcedure
  .meta(receiveCallbackMeta)
  .input(ZReceiveCallbackRequest)
  .output(ZReceiveCallbackResponse)
  .mutation(({ ctx, input }) =>
    receiveCallback(ctx.services.database.db, input.connectionId, { headers: ctx.req.headers, rawBody: ctx.state.rawBody }, deliveryOptions(ctx.services.config).policy),
  );
