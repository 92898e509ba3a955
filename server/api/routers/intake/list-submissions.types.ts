import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { SUBMISSION_STATUS_FILTERS } from '@/server/domain/intake/submissions-read';
import { ZIntakeSubmission } from './submission.types';

export const listSubmissionsMeta: OpenApiMeta<ProcedureMeta> = {
  scope: ['patients.read', 'intake.review'],
  openapi: {
    method: 'GET',
    path: '/intake/submissions',
    tags: ['intake'],
    summary: 'The review queue: submissions of this mode by status, newest first (no answers)',
    errorResponses: { 400: 'Unknown status, a reference that cannot be one, sandbox not naming the credential’s mode (mode_mismatch), bad page size', 403: 'Missing patients.read and intake.review' },
  },
};
export const ZListSubmissionsRequest = z.object({
  status: z.enum(SUBMISSION_STATUS_FILTERS).meta({ description: 'pending_review | disqualified | approved | rejected | all' }),
  // A string, not a boolean: the query coercion would read "false" as true.
  sandbox: z.enum(['true', 'false']).meta({ description: "Must name the credential's own mode: `true` for sandbox, `false` for live" }),
  reference: z
    .string()
    .max(40)
    .optional()
    .meta({ description: 'Only the submissions with this patient reference (as shown on the outcome page, e.g. 7KQ2-M9XD; case, spaces and dashes ignored)' }),
  limit: zLimit(100, 100),
  starting_after: zStartingAfter,
});
export const ZListSubmissionsResponse = z.array(ZIntakeSubmission);
