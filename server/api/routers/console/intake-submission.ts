import { sessionProcedure } from '@/server/api/procedures';
import { consoleSubmission } from '@/server/domain/intake/submission-console';
import { consoleIntakeSubmissionMeta, ZConsoleSubmissionRequest, ZConsoleSubmissionResponse } from './intake-submission.types';

/** One submission without its answers and the patient's state: the review page (a flagged patient match adds both people, logged). */
export const consoleIntakeSubmissionRoute = sessionProcedure
  .meta(consoleIntakeSubmissionMeta)
  .input(ZConsoleSubmissionRequest)
  .output(ZConsoleSubmissionResponse)
  .query(({ ctx, input }) => consoleSubmission(ctx.services.database, ctx.principal, input.id, ctx.state.requestId));
