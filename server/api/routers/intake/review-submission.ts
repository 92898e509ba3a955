import { resumedResult } from '@/server/api/middlewares/idempotency';
import { providerProcedure } from '@/server/api/procedures';
import { committedReview, reviewSubmission } from '@/server/domain/intake/submissions-review';
import { submitDeps } from '@/server/domain/orders/deps';
import { reviewSubmissionMeta, ZReviewSubmissionRequest, ZReviewSubmissionResponse } from './review-submission.types';

export const reviewSubmissionRoute = providerProcedure
  .meta(reviewSubmissionMeta)
  .input(ZReviewSubmissionRequest)
  .output(ZReviewSubmissionResponse)
  .mutation(
    async ({ ctx, input }) =>
      (await resumedResult(ctx, (since) => committedReview(ctx.services.database.db, ctx.principal, input.id, since))) ??
      reviewSubmission(ctx.services.database, ctx.principal, input.id, { decision: input.decision, note: input.note }, submitDeps(ctx.services.config)),
  );
