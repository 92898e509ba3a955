import { sessionProcedure } from '@/server/api/procedures';
import { consoleSubmissions } from '@/server/domain/intake/submission-console';
import { consoleIntakeSubmissionsMeta, ZConsoleSubmissionsRequest, ZConsoleSubmissionsResponse } from './review-queue.types';

/** The review queue with each patient's name, age and state, so a provider reads people, not ids. */
export const consoleIntakeSubmissionsRoute = sessionProcedure
  .meta(consoleIntakeSubmissionsMeta)
  .input(ZConsoleSubmissionsRequest)
  .output(ZConsoleSubmissionsResponse)
  .query(({ ctx, input }) =>
    consoleSubmissions(ctx.services.database, ctx.principal, { status: input.status, sandbox: input.sandbox, limit: input.limit, startingAfter: input.starting_after }, ctx.state.requestId),
  );
