import { opsProcedure } from '@/server/api/procedures';
import { AppError } from '@/server/lib/errors';
import { extendGraceMeta, ZExtendGraceRequest, ZExtendGraceResponse } from './extend-grace.types';

// PLACEHOLDER (issue 25 foundation): replaced by its owner.
export const extendGraceRoute = opsProcedure
  .meta(extendGraceMeta)
  .input(ZExtendGraceRequest)
  .output(ZExtendGraceResponse)
  .mutation(() => {
    throw new AppError('api_error', 'not_implemented', 501, 'Not built yet.');
  });
