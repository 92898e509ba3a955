import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZCatalog } from './catalog.types';

export const uploadCatalogMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'catalog.manage',
  successStatus: 201,
  csvBodyField: 'csv',
  queryFields: ['pharmacyConnectionId'],
  openapi: {
    method: 'POST',
    path: '/catalogs/upload',
    tags: ['catalog'],
    summary: "Upload a pharmacy's CSV price list as a pending catalog; send text/csv, or JSON {csv}",
    description:
      'Header row with `sku` (or `product_id`), `item_code`, `price_cents`, `stock`, `eta_days`; other columns are ignored. Every row must be valid or nothing is applied: the 400 lists each bad row by line in `error.details`.',
    errorResponses: { 400: 'Bad CSV: every bad row by line in error.details', 404: 'No such pharmacy connection in this tenant and mode', 415: 'Body neither CSV nor JSON' },
  },
};
export const ZUploadCatalogRequest = z.strictObject({
  pharmacyConnectionId: zId('Pharmacy connection').meta({ description: 'The pharmacy connection whose price list this is' }),
  csv: z.string().min(1).meta({ description: 'The CSV text (when the body is JSON)' }),
});
export const ZUploadCatalogResponse = ZCatalog;
