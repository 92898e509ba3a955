import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZPatient } from './patients.types';

export const getPatientMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'patients.read',
  openapi: {
    method: 'GET',
    path: '/patients/{id}',
    tags: ['patients'],
    summary: 'One patient (PHI; the read is recorded in its access log)',
    errorResponses: { 403: 'Missing patients.read', 404: 'No such patient on this tenant in this mode' },
  },
};
export const ZGetPatientRequest = z.object({ id: zId('Patient') });
export const ZGetPatientResponse = ZPatient;
