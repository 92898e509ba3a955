import { resumption } from '@/server/api/middlewares/idempotency';
import { providerProcedure } from '@/server/api/procedures';
import { reviewSubmission } from '@/server/domain/intake/submissions-review';
import { submitDeps } from '@/server/domain/orders/deps';
import { reviewSubmissionMeta, ZReviewSubmissionRequest, ZReviewSubmissionResponse } from './review-submission.types';

export const reviewSubmissionRoute = providerProcedure
  .meta(reviewSubmissionMeta)
  .input(ZReviewSubmissionRequest)
  .output(ZReviewSubmissionResponse)
  .mutation(({ ctx, input }) =>
    reviewSubmission(ctx.services.database, ctx.principal, input.id, { decision: input.decision, note: input.note }, submitDeps(ctx.services.config), resumption(ctx)),
  );
