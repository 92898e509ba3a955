import { keyOrUserProcedure } from '@/server/api/procedures';
import { reconciliation } from '@/server/domain/orders/reconciliation';
import { reconciliationMeta, ZReconciliationRequest, ZReconciliationResponse } from './reconciliation.types';

export const reconciliationRoute = keyOrUserProcedure
  .meta(reconciliationMeta)
  .input(ZReconciliationRequest)
  .output(ZReconciliationResponse)
  .query(({ ctx }) => reconciliation(ctx.services.database.db, ctx.principal, ctx.services.config.STUCK_SUBMITTING_MS));
