import { keyOrUserProcedure } from '@/server/api/procedures';
import { AppError } from '@/server/lib/errors';
import { getBillingHealthMeta, ZGetBillingHealthRequest, ZGetBillingHealthResponse } from './get-billing-health.types';

// PLACEHOLDER (issue 25 foundation): replaced by its owner.
export const getBillingHealthRoute = keyOrUserProcedure
  .meta(getBillingHealthMeta)
  .input(ZGetBillingHealthRequest)
  .output(ZGetBillingHealthResponse)
  .query(() => {
    throw new AppError('api_error', 'not_implemented', 501, 'Not built yet.');
  });
