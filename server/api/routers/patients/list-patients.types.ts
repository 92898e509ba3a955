import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { ZPatient } from './patients.types';

export const listPatientsMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'patients.read',
  openapi: {
    method: 'GET',
    path: '/patients',
    tags: ['patients'],
    summary: "List the mode's patients, newest first (PHI; each patient returned is recorded in its access log)",
    errorResponses: { 400: 'Bad page size or cursor', 403: 'Missing patients.read' },
  },
};
export const ZListPatientsRequest = z.object({ limit: zLimit(100, 100), starting_after: zStartingAfter });
export const ZListPatientsResponse = z.array(ZPatient);
