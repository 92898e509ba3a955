import { sessionProcedure } from '@/server/api/procedures';
import { consoleSubmission } from '@/server/domain/intake/submission-console';
import { consoleIntakeSubmissionMeta, ZConsoleSubmissionRequest, ZConsoleSubmissionResponse } from './submission-for-review.types';

/** One submission with the person it describes (a logged PHI read), its versions, the reviewer's licence match and, for a flagged patient match, both people. */
export const consoleIntakeSubmissionRoute = sessionProcedure
  .meta(consoleIntakeSubmissionMeta)
  .input(ZConsoleSubmissionRequest)
  .output(ZConsoleSubmissionResponse)
  .query(({ ctx, input }) => consoleSubmission(ctx.services.database, ctx.principal, input.id, ctx.state.requestId));
