import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { ZPharmacyConnection } from './pharmacy.types';

export const listPharmaciesMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'pharmacies.manage',
  openapi: { method: 'GET', path: '/pharmacies', tags: ['pharmacies'], summary: 'List pharmacy connections, newest first (no secrets)', errorResponses: { 403: 'Missing pharmacies.manage' } },
};
export const ZListPharmaciesRequest = z.object({ limit: zLimit(100, 100), starting_after: zStartingAfter });
export const ZListPharmaciesResponse = z.array(ZPharmacyConnection);
