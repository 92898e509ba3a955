import { keyOrUserProcedure } from '@/server/api/procedures';
import { resolveOrder } from '@/server/domain/orders/resolve';
import { resolveOrderMeta, ZResolveOrderRequest, ZResolveOrderResponse } from './resolve-order.types';

export const resolveOrderRoute = keyOrUserProcedure
  .meta(resolveOrderMeta)
  .input(ZResolveOrderRequest)
  .output(ZResolveOrderResponse)
  .mutation(({ ctx, input: { id, ...rest } }) => resolveOrder(ctx.services.database.db, ctx.principal, id, rest));
