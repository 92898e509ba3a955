import { keyOrUserProcedure } from '@/server/api/procedures';
import { submitInApp } from '@/server/domain/intake/submissions-create';
import { createSubmissionMeta, ZCreateSubmissionRequest, ZCreateSubmissionResponse } from './create-submission.types';

export const createSubmissionRoute = keyOrUserProcedure
  .meta(createSubmissionMeta)
  .input(ZCreateSubmissionRequest)
  .output(ZCreateSubmissionResponse)
  .mutation(({ ctx, input }) => submitInApp(ctx.services.database, ctx.principal, input, { deps: ctx.services.auth }));
