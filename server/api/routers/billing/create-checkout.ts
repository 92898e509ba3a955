import { keyOrUserProcedure } from '@/server/api/procedures';
import { AppError } from '@/server/lib/errors';
import { createCheckoutMeta, ZCreateCheckoutRequest, ZCreateCheckoutResponse } from './create-checkout.types';

// PLACEHOLDER (issue 25 foundation): replaced by its owner.
export const createCheckoutRoute = keyOrUserProcedure
  .meta(createCheckoutMeta)
  .input(ZCreateCheckoutRequest)
  .output(ZCreateCheckoutResponse)
  .mutation(() => {
    throw new AppError('api_error', 'not_implemented', 501, 'Not built yet.');
  });
