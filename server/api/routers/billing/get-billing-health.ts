import { keyOrUserProcedure } from '@/server/api/procedures';
import { getBillingHealth } from '@/server/domain/billing/health';
import { getBillingHealthMeta, ZGetBillingHealthRequest, ZGetBillingHealthResponse } from './get-billing-health.types';

export const getBillingHealthRoute = keyOrUserProcedure
  .meta(getBillingHealthMeta)
  .input(ZGetBillingHealthRequest)
  .output(ZGetBillingHealthResponse)
  .query(({ ctx }) => getBillingHealth(ctx.services.database.db, ctx.principal));
