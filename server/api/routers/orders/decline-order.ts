import { providerProcedure } from '@/server/api/procedures';
import { declineOrder } from '@/server/domain/orders/decline';
import { declineOrderMeta, ZDeclineOrderRequest, ZDeclineOrderResponse } from './decline-order.types';

export const consoleDeclineOrderRoute = providerProcedure
  .meta(declineOrderMeta)
  .input(ZDeclineOrderRequest)
  .output(ZDeclineOrderResponse)
  .mutation(({ ctx, input }) => declineOrder(ctx.services.database.db, ctx.principal, input.id, input.reason));
