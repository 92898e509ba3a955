import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZPharmacyConnection, ZUpdatePharmacyConnection } from './pharmacy.types';

export const updatePharmacyMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'pharmacies.manage',
  openapi: {
    method: 'PATCH',
    path: '/pharmacies/{id}',
    tags: ['pharmacies'],
    summary: 'Change a pharmacy connection: name, settings, states, enabled/disabled',
    errorResponses: { 400: 'Bad settings or state code', 404: 'No such connection in this tenant and mode' },
  },
};
export const ZUpdatePharmacyRequest = ZUpdatePharmacyConnection.extend({ id: zId('Pharmacy connection') });
export const ZUpdatePharmacyResponse = ZPharmacyConnection;
