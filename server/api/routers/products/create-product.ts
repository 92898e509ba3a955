import { keyOrUserProcedure } from '@/server/api/procedures';
import { createProduct } from '@/server/domain/catalog/products';
import { createProductMeta, ZCreateProductRequest, ZCreateProductResponse } from './create-product.types';

export const createProductRoute = keyOrUserProcedure
  .meta(createProductMeta)
  .input(ZCreateProductRequest)
  .output(ZCreateProductResponse)
  .mutation(({ ctx, input }) => createProduct(ctx.services.database.db, ctx.principal, input));
