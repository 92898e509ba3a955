import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { zActiveFilter, ZProductList } from './product.types';

export const listProductsMeta: OpenApiMeta<ProcedureMeta> = {
  // Whoever may create orders must see what can be ordered (providers hold orders.write, not catalog.manage).
  scope: ['catalog.manage', 'orders.write'],
  openapi: {
    method: 'GET',
    path: '/products',
    tags: ['catalog'],
    summary: 'List products, newest first',
    errorResponses: { 400: 'Bad page size, cursor or active flag', 403: 'Missing catalog.manage and orders.write' },
  },
};
export const ZListProductsRequest = z.object({
  active: zActiveFilter,
  limit: zLimit(100, 100),
  starting_after: zStartingAfter,
});
export const ZListProductsResponse = ZProductList;
