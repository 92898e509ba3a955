import { keyOrUserProcedure } from '@/server/api/procedures';
import { rerouteOrder } from '@/server/domain/orders/reroute';
import { rerouteOrderMeta, ZRerouteOrderRequest, ZRerouteOrderResponse } from './reroute-order.types';

export const rerouteOrderRoute = keyOrUserProcedure
  .meta(rerouteOrderMeta)
  .input(ZRerouteOrderRequest)
  .output(ZRerouteOrderResponse)
  .mutation(({ ctx, input: { id, ...rest } }) => rerouteOrder(ctx.services.database.db, ctx.principal, id, rest));
