import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { PATIENT_ERRORS, ZPatientProfile } from './patient.types';

export const getPatientProfileMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'GET',
    path: '/patient/me',
    tags: ['patient portal'],
    summary: "The signed-in patient's name, e-mail, phone, shipping address and notice choices (patient session only; logged)",
    errorResponses: PATIENT_ERRORS,
  },
};
export const ZGetPatientProfileRequest = z.object({});
export const ZGetPatientProfileResponse = ZPatientProfile;
