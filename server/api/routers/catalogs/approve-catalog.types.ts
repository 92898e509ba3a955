import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZCatalog } from './catalog.types';

export const approveCatalogMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'catalog.manage',
  openapi: {
    method: 'PATCH',
    path: '/catalogs/{id}/approve',
    tags: ['catalog'],
    summary: "Approve a pending catalog: it becomes the connection's price list for routing and supersedes the previous one",
    errorResponses: { 404: 'No such catalog in this tenant and mode', 409: 'The catalog is not pending' },
  },
};
export const ZApproveCatalogRequest = z.object({ id: zId('Catalog') });
export const ZApproveCatalogResponse = ZCatalog;
