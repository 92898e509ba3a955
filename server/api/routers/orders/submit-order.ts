import { resumption } from '@/server/api/middlewares/idempotency';
import { keyOrUserProcedure } from '@/server/api/procedures';
import { submitOrder } from '@/server/domain/orders/submit';
import { submitDeps } from '@/server/domain/orders/deps';
import { submitOrderMeta, ZSubmitOrderRequest, ZSubmitOrderResponse } from './submit-order.types';

export const submitOrderRoute = keyOrUserProcedure
  .meta(submitOrderMeta)
  .input(ZSubmitOrderRequest)
  .output(ZSubmitOrderResponse)
  .mutation(({ ctx, input }) => submitOrder(ctx.services.database, ctx.principal, input.id, submitDeps(ctx.services.config), resumption(ctx)));
