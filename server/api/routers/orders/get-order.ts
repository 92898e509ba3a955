import { keyOrUserProcedure } from '@/server/api/procedures';
import { getOrderDetail } from '@/server/domain/orders/read';
import { getOrderMeta, ZGetOrderRequest, ZGetOrderResponse } from './get-order.types';

export const getOrderRoute = keyOrUserProcedure
  .meta(getOrderMeta)
  .input(ZGetOrderRequest)
  .output(ZGetOrderResponse)
  .query(({ ctx, input }) => getOrderDetail(ctx.services.database.db, ctx.principal, input.id, ctx.state.requestId));
