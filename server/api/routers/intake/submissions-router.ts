import { createSubmissionRoute } from './create-submission';
import { getSubmissionRoute } from './get-submission';
import { listSubmissionsRoute } from './list-submissions';
import { resolveIdentityRoute } from './resolve-identity';
import { reviewSubmissionRoute } from './review-submission';
import { consoleIntakeSubmissionsRoute } from './review-queue';
import { consoleIntakeSubmissionRoute } from './submission-for-review';

// Spread into the intake router; `/intake/submissions` before `/intake/submissions/{id}` (first match wins).
export const submissionsRoutes = {
  listSubmissions: listSubmissionsRoute,
  createSubmission: createSubmissionRoute,
  getSubmission: getSubmissionRoute,
  reviewSubmission: reviewSubmissionRoute,
  resolveIdentity: resolveIdentityRoute,
  reviewQueue: consoleIntakeSubmissionsRoute,
  submissionForReview: consoleIntakeSubmissionRoute,
};
