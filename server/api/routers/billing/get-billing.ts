import { keyOrUserProcedure } from '@/server/api/procedures';
import { AppError } from '@/server/lib/errors';
import { getBillingMeta, ZGetBillingRequest, ZGetBillingResponse } from './get-billing.types';

// PLACEHOLDER (issue 25 foundation): replaced by its owner.
export const getBillingRoute = keyOrUserProcedure
  .meta(getBillingMeta)
  .input(ZGetBillingRequest)
  .output(ZGetBillingResponse)
  .query(() => {
    throw new AppError('api_error', 'not_implemented', 501, 'Not built yet.');
  });
