import { keyOrUserProcedure } from '@/server/api/procedures';
import { createOrder } from '@/server/domain/orders/create';
import { createOrderMeta, ZCreateOrderRequest, ZCreateOrderResponse } from './create-order.types';

export const createOrderRoute = keyOrUserProcedure
  .meta(createOrderMeta)
  .input(ZCreateOrderRequest)
  .output(ZCreateOrderResponse)
  .mutation(({ ctx, input }) => createOrder(ctx.services.database.db, ctx.principal, input));
