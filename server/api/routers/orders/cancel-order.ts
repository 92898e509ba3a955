import { keyOrUserProcedure } from '@/server/api/procedures';
import { cancelOrder } from '@/server/domain/orders/cancel';
import { cancelOrderMeta, ZCancelOrderRequest, ZCancelOrderResponse } from './cancel-order.types';

export const cancelOrderRoute = keyOrUserProcedure
  .meta(cancelOrderMeta)
  .input(ZCancelOrderRequest)
  .output(ZCancelOrderResponse)
  .mutation(({ ctx, input }) => cancelOrder(ctx.services.database.db, ctx.principal, input.id));
