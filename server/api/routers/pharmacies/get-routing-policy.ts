import { keyOrUserProcedure } from '@/server/api/procedures';
import { getPolicy } from '@/server/domain/pharmacies/routing-policy';
import { getRoutingPolicyMeta, ZGetRoutingPolicyRequest, ZGetRoutingPolicyResponse } from './get-routing-policy.types';

export const getRoutingPolicyRoute = keyOrUserProcedure
  .meta(getRoutingPolicyMeta)
  .input(ZGetRoutingPolicyRequest)
  .output(ZGetRoutingPolicyResponse)
  .query(({ ctx }) => getPolicy(ctx.services.database.db, ctx.principal));
