import { keyOrUserProcedure } from '@/server/api/procedures';
import { AppError } from '@/server/lib/errors';
import { createPortalMeta, ZCreatePortalRequest, ZCreatePortalResponse } from './create-portal.types';

// PLACEHOLDER (issue 25 foundation): replaced by its owner.
export const createPortalRoute = keyOrUserProcedure
  .meta(createPortalMeta)
  .input(ZCreatePortalRequest)
  .output(ZCreatePortalResponse)
  .mutation(() => {
    throw new AppError('api_error', 'not_implemented', 501, 'Not built yet.');
  });
