import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZIntakeSubmission } from './submission.types';

export const createSubmissionMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'patients.write',
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/intake/submissions',
    tags: ['intake'],
    summary: "An existing patient's answers to the current approved questionnaire, evaluated by the engine (eligible → certificate)",
    errorResponses: {
      400: 'Bad body, or an answer that does not fit its item (param answers.<linkId>; the value is never echoed)',
      403: 'Missing patients.write',
      404: 'No such patient, or no approved questionnaire with this key, in this mode',
      422: 'Required questions unanswered (intake_incomplete; param answers.<first missing linkId>)',
    },
  },
};
export const ZCreateSubmissionRequest = z.strictObject({
  questionnaireKey: z.string().min(1).max(64).meta({ description: 'Key of an approved questionnaire; its current version is used' }),
  patientId: zId('Patient'),
  answers: z.record(z.string().min(1).max(64), z.unknown()).meta({ description: 'Answers by item linkId (PHI: stored apart, never echoed)' }),
});
export const ZCreateSubmissionResponse = ZIntakeSubmission;
