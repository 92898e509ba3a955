import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId, zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { ZCatalog, zCatalogStatus } from './catalog.types';

export const listCatalogsMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'catalog.manage',
  openapi: { method: 'GET', path: '/catalogs', tags: ['catalog'], summary: 'List catalogs (without lines), newest first', errorResponses: { 403: 'Missing catalog.manage' } },
};
export const ZListCatalogsRequest = z.object({
  pharmacyConnectionId: zId('Pharmacy connection').optional().meta({ description: 'Only catalogs of this connection' }),
  status: zCatalogStatus.optional(),
  limit: zLimit(100, 100),
  starting_after: zStartingAfter,
});
export const ZListCatalogsResponse = z.array(ZCatalog);
