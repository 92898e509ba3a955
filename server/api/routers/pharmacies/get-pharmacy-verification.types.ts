import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZPharmacyVerification } from './verification.types';

export const getPharmacyVerificationMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'pharmacies.manage',
  openapi: {
    method: 'GET',
    path: '/pharmacies/{id}/verify',
    tags: ['pharmacies'],
    summary: "The connection's latest protocol check run (null when none was ever run)",
    errorResponses: { 404: 'No such connection in this tenant and mode' },
  },
};
export const ZGetPharmacyVerificationRequest = z.object({ id: zId('Pharmacy connection') });
export const ZGetPharmacyVerificationResponse = ZPharmacyVerification.nullable();
