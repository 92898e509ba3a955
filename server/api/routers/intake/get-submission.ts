import { keyOrUserProcedure } from '@/server/api/procedures';
import { getSubmission } from '@/server/domain/intake/submissions-read';
import { getSubmissionMeta, ZGetSubmissionRequest, ZGetSubmissionResponse } from './get-submission.types';

export const getSubmissionRoute = keyOrUserProcedure
  .meta(getSubmissionMeta)
  .input(ZGetSubmissionRequest)
  .output(ZGetSubmissionResponse)
  .query(({ ctx, input }) => getSubmission(ctx.services.database, ctx.principal, input.id, ctx.state.requestId));
