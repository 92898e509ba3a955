import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZIntakeSubmission, zSubmissionId } from './submission.types';

export const getSubmissionMeta: OpenApiMeta<ProcedureMeta> = {
  scope: ['patients.read', 'intake.review'],
  openapi: {
    method: 'GET',
    path: '/intake/submissions/{id}',
    tags: ['intake'],
    summary: "One submission; its answers and review note only with patients.read (PHI: the read is recorded in the patient's access log)",
    errorResponses: { 403: 'Missing patients.read and intake.review', 404: 'No such submission on this tenant in this mode' },
  },
};
export const ZGetSubmissionRequest = zSubmissionId;
export const ZGetSubmissionResponse = ZIntakeSubmission.extend({
  answers: z.record(z.string(), z.unknown()).optional().meta({ description: 'Answers by linkId; present only with patients.read' }),
  reviewNote: z.string().nullable().optional().meta({ description: "The reviewing provider's note; present only with patients.read" }),
}).meta({ id: 'IntakeSubmissionDetail' });
