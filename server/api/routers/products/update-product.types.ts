import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZProduct, ZUpdateProduct } from './product.types';

export const updateProductMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'catalog.manage',
  openapi: {
    method: 'PATCH',
    path: '/products/{id}',
    tags: ['catalog'],
    summary: 'Change a product (send only the fields to change; null clears strength, description, ndc or rxcui)',
    errorResponses: {
      400: 'Invalid or unknown field',
      403: 'Missing catalog.manage',
      404: 'No such product in this account and mode',
      409: 'The new SKU is taken in this mode (sku_taken)',
    },
  },
};
export const ZUpdateProductRequest = ZUpdateProduct.extend({ id: zId('Product') });
export const ZUpdateProductResponse = ZProduct;
