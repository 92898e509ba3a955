import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZPatient, ZUpdatePatient } from './patients.types';

export const updatePatientMeta: OpenApiMeta<ProcedureMeta> = {
  returnsPatient: true,
  scope: 'patients.write',
  openapi: {
    method: 'PATCH',
    path: '/patients/{id}',
    tags: ['patients'],
    summary: 'Change a patient (send only the fields to change; null clears email, phone or address)',
    errorResponses: {
      400: 'An invalid field (named in param; its value is never echoed), or an attempt to change synthetic',
      403: 'Missing patients.write',
      404: 'No such patient on this tenant in this mode',
    },
  },
};
export const ZUpdatePatientRequest = ZUpdatePatient.extend({ id: zId('Patient') });
export const ZUpdatePatientResponse = ZPatient;
