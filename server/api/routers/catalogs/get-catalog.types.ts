import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZCatalogWithLines } from './catalog.types';

export const getCatalogMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'catalog.manage',
  openapi: { method: 'GET', path: '/catalogs/{id}', tags: ['catalog'], summary: 'A catalog with its status and every line', errorResponses: { 404: 'No such catalog in this tenant and mode' } },
};
export const ZGetCatalogRequest = z.object({ id: zId('Catalog') });
export const ZGetCatalogResponse = ZCatalogWithLines;
