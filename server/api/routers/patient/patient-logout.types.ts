import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { PATIENT_ERRORS } from './patient.types';

export const patientLogoutMeta: OpenApiMeta<ProcedureMeta> = {
  idempotent: false,
  openapi: {
    method: 'POST',
    path: '/patient/logout',
    tags: ['patient portal'],
    summary: "Ends the patient's session at once: its token is refused from then on",
    errorResponses: PATIENT_ERRORS,
  },
};
export const ZPatientLogoutRequest = z.strictObject({});
export const ZPatientLogoutResponse = z.object({ signedOut: z.literal(true) }).meta({ id: 'PatientSignedOut' });
