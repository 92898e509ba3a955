import { keyOrUserProcedure } from '@/server/api/procedures';
import { getBilling } from '@/server/domain/billing/health';
import { getBillingMeta, ZGetBillingRequest, ZGetBillingResponse } from './get-billing.types';

export const getBillingRoute = keyOrUserProcedure
  .meta(getBillingMeta)
  .input(ZGetBillingRequest)
  .output(ZGetBillingResponse)
  .query(({ ctx }) => getBilling(ctx.services.database.db, ctx.principal));
