import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZCreatePatient, ZPatient } from './patients.types';

export const createPatientMeta: OpenApiMeta<ProcedureMeta> = {
  returnsPatient: true,
  scope: 'patients.write',
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/patients',
    tags: ['patients'],
    summary: 'Create a patient; in sandbox, {"synthetic": true} alone generates a fictitious one',
    errorResponses: {
      400: 'A missing or invalid field (named in param; its value is never echoed), or synthetic with a live key',
      403: 'Missing patients.write',
    },
  },
};
export const ZCreatePatientRequest = ZCreatePatient;
export const ZCreatePatientResponse = ZPatient;
