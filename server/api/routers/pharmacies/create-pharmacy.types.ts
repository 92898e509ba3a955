import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZCreatedPharmacyConnection, ZCreatePharmacyConnection } from './pharmacy.types';

export const createPharmacyMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'pharmacies.manage',
  successStatus: 201,
  secretFields: ['secret'],
  openapi: {
    method: 'POST',
    path: '/pharmacies',
    tags: ['pharmacies'],
    summary: 'Connect a pharmacy; its whsec_ secret is returned once',
    errorResponses: { 400: 'Bad settings, state code, http adapter in sandbox, or a base URL that breaks the webhook URL rules', 403: 'Missing pharmacies.manage' },
  },
};
export const ZCreatePharmacyRequest = ZCreatePharmacyConnection;
export const ZCreatePharmacyResponse = ZCreatedPharmacyConnection;
