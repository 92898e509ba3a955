import { keyOrUserProcedure } from '@/server/api/procedures';
import { listSubmissions } from '@/server/domain/intake/submissions-read';
import { listSubmissionsMeta, ZListSubmissionsRequest, ZListSubmissionsResponse } from './list-submissions.types';

export const listSubmissionsRoute = keyOrUserProcedure
  .meta(listSubmissionsMeta)
  .input(ZListSubmissionsRequest)
  .output(ZListSubmissionsResponse)
  .query(({ ctx, input }) =>
    listSubmissions(ctx.services.database.db, ctx.principal, { status: input.status, sandbox: input.sandbox, limit: input.limit, startingAfter: input.starting_after, reference: input.reference }),
  );
