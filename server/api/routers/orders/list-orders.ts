import { keyOrUserProcedure } from '@/server/api/procedures';
import { listOrders } from '@/server/domain/orders/read';
import { listOrdersMeta, ZListOrdersRequest, ZListOrdersResponse } from './list-orders.types';

export const listOrdersRoute = keyOrUserProcedure
  .meta(listOrdersMeta)
  .input(ZListOrdersRequest)
  .output(ZListOrdersResponse)
  .query(({ ctx, input }) => listOrders(ctx.services.database.db, ctx.principal, { status: input.status, limit: input.limit, startingAfter: input.starting_after }));
