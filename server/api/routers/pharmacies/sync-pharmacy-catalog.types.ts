import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZCatalog } from '@/server/api/routers/catalogs/catalog.types';

export const syncPharmacyCatalogMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'pharmacies.manage',
  successStatus: 201,
  externalEffects: true,
  openapi: {
    method: 'POST',
    path: '/pharmacies/{id}/sync-catalog',
    tags: ['pharmacies'],
    summary: "Fetch the pharmacy's price list into a new pending catalog (unknown SKUs are skipped and counted)",
    errorResponses: { 404: 'No such connection in this tenant and mode', 503: 'The pharmacy could not be reached or answered wrongly' },
  },
};
export const ZSyncPharmacyCatalogRequest = z.object({ id: zId('Pharmacy connection') });
export const ZSyncPharmacyCatalogResponse = ZCatalog;
