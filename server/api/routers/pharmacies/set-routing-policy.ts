import { keyOrUserProcedure } from '@/server/api/procedures';
import { setPolicy } from '@/server/domain/pharmacies/routing-policy';
import { setRoutingPolicyMeta, ZSetRoutingPolicyRequest, ZSetRoutingPolicyResponse } from './set-routing-policy.types';

export const setRoutingPolicyRoute = keyOrUserProcedure
  .meta(setRoutingPolicyMeta)
  .input(ZSetRoutingPolicyRequest)
  .output(ZSetRoutingPolicyResponse)
  .mutation(({ ctx, input }) => setPolicy(ctx.services.database.db, ctx.principal, input));
