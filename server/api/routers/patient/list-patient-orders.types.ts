import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { PATIENT_ERRORS, ZPatientOrderSummary } from './patient.types';

export const listPatientOrdersMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'GET',
    path: '/patient/orders',
    tags: ['patient portal'],
    summary: "The signed-in patient's orders (the 100 newest), each with its status in words, medications and tracking (logged)",
    errorResponses: PATIENT_ERRORS,
  },
};
export const ZListPatientOrdersRequest = z.object({});
export const ZListPatientOrdersResponse = z.array(ZPatientOrderSummary);
