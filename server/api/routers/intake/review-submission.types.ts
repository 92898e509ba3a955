import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZIntakeSubmission } from './submission.types';

export const reviewSubmissionMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'intake.review',
  successStatus: 200,
  externalEffects: true,
  openapi: {
    method: 'POST',
    path: '/intake/submissions/{id}/review',
    tags: ['intake'],
    summary: "A licensed provider's decision: approve creates the order from the questionnaire's protocol, approved by them and submitted at once; reject records the reason",
    errorResponses: {
      400: 'Bad body',
      403: 'Not a verified, MFA-enrolled provider session, not licensed in the patient’s state, or the plan’s order cap is reached; an approval while the account is restricted or suspended for an overdue payment (billing_restricted, billing_suspended; a reject is never refused)',
      404: 'No such submission on this tenant in this mode',
      409: 'Disqualified (submission_disqualified), already reviewed, an unresolved patient match on approve (identity_unresolved), the patient has no state, or the questionnaire has no usable protocol',
    },
  },
};
export const ZReviewSubmissionRequest = z.strictObject({
  id: zId('Intake submission'),
  decision: z.enum(['approve', 'reject']).meta({ description: 'approve | reject' }),
  note: z.string().trim().max(2000).optional().meta({ description: 'The reason or remark; kept on the submission, never in events or logs' }),
});
export const ZReviewSubmissionResponse = ZIntakeSubmission;
