import { sessionProcedure } from '@/server/api/procedures';
import { consoleSubmission } from '@/server/domain/intake/submission-console';
import { consoleIntakeSubmissionMeta, ZConsoleSubmissionRequest, ZConsoleSubmissionResponse } from './intake-submission.types';

/** One submission without its answers (no PHI read, nothing logged) and the patient's state: the review page. */
export const consoleIntakeSubmissionRoute = sessionProcedure
  .meta(consoleIntakeSubmissionMeta)
  .input(ZConsoleSubmissionRequest)
  .output(ZConsoleSubmissionResponse)
  .query(({ ctx, input }) => consoleSubmission(ctx.services.database.db, ctx.principal, input.id));
