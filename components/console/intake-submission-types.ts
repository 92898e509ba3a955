import type { RouterInputs, RouterOutputs } from '@/lib/console/types';

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
