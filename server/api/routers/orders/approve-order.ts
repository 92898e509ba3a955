import { resumedResult } from '@/server/api/middlewares/idempotency';
import { providerProcedure } from '@/server/api/procedures';
import { approveOrder } from '@/server/domain/orders/approve';
import { submitDeps } from '@/server/domain/orders/deps';
import { committedMove } from '@/server/domain/orders/resume';
import { approveOrderMeta, ZApproveOrderRequest, ZApproveOrderResponse } from './approve-order.types';

export const approveOrderRoute = providerProcedure
  .meta(approveOrderMeta)
  .input(ZApproveOrderRequest)
  .output(ZApproveOrderResponse)
  .mutation(
    async ({ ctx, input }) =>
      (await resumedResult(ctx, (since) => committedMove(ctx.services.database.db, ctx.principal, input.id, 'pending_approval', since))) ??
      approveOrder(ctx.services.database, ctx.principal, input.id, submitDeps(ctx.services.config)),
  );
