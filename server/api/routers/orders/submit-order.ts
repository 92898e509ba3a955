import { resumedResult } from '@/server/api/middlewares/idempotency';
import { keyOrUserProcedure } from '@/server/api/procedures';
import { submitOrder } from '@/server/domain/orders/approve';
import { submitDeps } from '@/server/domain/orders/deps';
import { committedMove } from '@/server/domain/orders/resume';
import { submitOrderMeta, ZSubmitOrderRequest, ZSubmitOrderResponse } from './submit-order.types';

export const submitOrderRoute = keyOrUserProcedure
  .meta(submitOrderMeta)
  .input(ZSubmitOrderRequest)
  .output(ZSubmitOrderResponse)
  .mutation(
    async ({ ctx, input }) =>
      (await resumedResult(ctx, (since) => committedMove(ctx.services.database.db, ctx.principal, input.id, 'approved', since))) ??
      submitOrder(ctx.services.database, ctx.principal, input.id, submitDeps(ctx.services.config)),
  );
