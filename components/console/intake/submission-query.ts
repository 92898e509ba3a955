/**
 * How every part of the review page holds `intake.submissionForReview`: reading it is a logged PHI read (the
 * person, a flagged match's two records), so it is read once per page view and never again on focus or
 * reconnect; a change made on the page (a review, a resolved match) updates or re-reads it on purpose.
 */
export const HELD_SUBMISSION = { staleTime: Infinity, refetchOnWindowFocus: false, refetchOnReconnect: false } as const;
