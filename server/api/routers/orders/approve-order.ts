import { resumption } from '@/server/api/middlewares/idempotency';
import { providerProcedure } from '@/server/api/procedures';
import { approveOrder } from '@/server/domain/orders/approve';
import { submitDeps } from '@/server/domain/orders/deps';
import { approveOrderMeta, ZApproveOrderRequest, ZApproveOrderResponse } from './approve-order.types';

export const approveOrderRoute = providerProcedure
  .meta(approveOrderMeta)
  .input(ZApproveOrderRequest)
  .output(ZApproveOrderResponse)
  .mutation(({ ctx, input }) => approveOrder(ctx.services.database, ctx.principal, input.id, submitDeps(ctx.services.config), resumption(ctx)));
