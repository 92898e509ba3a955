import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId, zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { ZPatientAccessLogEntry } from './patients.types';

export const listPatientAccessLogMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'patients.read',
  openapi: {
    method: 'GET',
    path: '/patients/{id}/access-log',
    tags: ['patients'],
    summary: "Who created, read, listed or changed a patient's record, newest first (API keys, or owner and admin sessions)",
    errorResponses: {
      400: 'Bad page size or cursor',
      403: 'Missing patients.read, or a user session whose role is not owner or admin',
      404: 'No such patient on this tenant in this mode',
    },
  },
};
export const ZListPatientAccessLogRequest = z.object({ id: zId('Patient'), limit: zLimit(100, 100), starting_after: zStartingAfter });
export const ZListPatientAccessLogResponse = z.array(ZPatientAccessLogEntry);
