import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZCreateProduct, ZProduct } from './product.types';

export const createProductMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'catalog.manage',
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/products',
    tags: ['catalog'],
    summary: 'Create a product',
    errorResponses: { 400: 'Invalid or unknown field', 403: 'Missing catalog.manage', 409: 'The SKU is taken in this mode (sku_taken)' },
  },
};
export const ZCreateProductRequest = ZCreateProduct;
export const ZCreateProductResponse = ZProduct;
