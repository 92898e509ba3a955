import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { PATIENT_ERRORS, ZPatientOrder } from './patient.types';

export const getPatientOrderMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'GET',
    path: '/patient/orders/{id}',
    tags: ['patient portal'],
    summary: "One of the signed-in patient's orders: status and next step in words, timeline, pharmacy, medications and sig, carrier and tracking (logged)",
    errorResponses: { ...PATIENT_ERRORS, 404: "No such order of this patient (any other patient's order is a 404 too)" },
  },
};
export const ZGetPatientOrderRequest = z.object({ id: zId('Order') });
export const ZGetPatientOrderResponse = ZPatientOrder;
