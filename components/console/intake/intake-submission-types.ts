import type { RouterInputs, RouterOutputs } from '@/web/console/types';

/** The review queue's shapes and filters; no 'use client', so the server page can read the values too. */
export type Submission = RouterOutputs['intake']['listSubmissions'][number];
export type SubmissionFilter = RouterInputs['intake']['listSubmissions']['status'];
export const SUBMISSION_FILTERS: { value: SubmissionFilter; label: string }[] = [
  { value: 'pending_review', label: 'Pending review' },
  { value: 'disqualified', label: 'Disqualified' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'all', label: 'All' },
];
export const PAGE_SIZE = 50;
/** The review page's record: the submission with the person, the flow version and the reviewer's licence match. */
export type ConsoleSubmission = RouterOutputs['intake']['submissionForReview'];
/** A review queue row: the submission with its patient's name, age and state (null when the role reads no patients). */
export type QueuedSubmission = RouterOutputs['intake']['reviewQueue'][number];
