import { keyOrUserProcedure } from '@/server/api/procedures';
import { planRouting } from '@/server/domain/routing/plan';
import { planRoutingMeta, ZPlanRoutingRequest, ZPlanRoutingResponse } from './plan-routing.types';

export const planRoutingRoute = keyOrUserProcedure
  .meta(planRoutingMeta)
  .input(ZPlanRoutingRequest)
  .output(ZPlanRoutingResponse)
  .mutation(({ ctx, input }) => planRouting(ctx.services.database.db, ctx.principal, input));
