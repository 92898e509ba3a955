import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZCatalog } from './catalog.types';

export const rejectCatalogMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'catalog.manage',
  openapi: {
    method: 'PATCH',
    path: '/catalogs/{id}/reject',
    tags: ['catalog'],
    summary: 'Reject a pending catalog with a reason; it never takes part in routing',
    errorResponses: { 400: 'Missing reason', 404: 'No such catalog in this tenant and mode', 409: 'The catalog is not pending' },
  },
};
export const ZRejectCatalogRequest = z.strictObject({
  id: zId('Catalog'),
  reason: z.string().trim().min(1).max(500).meta({ description: 'Why the price list is refused (shown to the team)' }),
});
export const ZRejectCatalogResponse = ZCatalog;
