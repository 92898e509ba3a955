import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { PATIENT_ERRORS, ZPatientSubmission } from './patient.types';

export const listPatientSubmissionsMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'GET',
    path: '/patient/submissions',
    tags: ['patient portal'],
    summary: "The signed-in patient's questionnaires sent to the clinic (the 100 newest): reference, date and outcome in words (logged)",
    errorResponses: PATIENT_ERRORS,
  },
};
export const ZListPatientSubmissionsRequest = z.object({});
export const ZListPatientSubmissionsResponse = z.array(ZPatientSubmission);
