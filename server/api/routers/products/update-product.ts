import { keyOrUserProcedure } from '@/server/api/procedures';
import { updateProduct } from '@/server/domain/catalog/products';
import { updateProductMeta, ZUpdateProductRequest, ZUpdateProductResponse } from './update-product.types';

export const updateProductRoute = keyOrUserProcedure
  .meta(updateProductMeta)
  .input(ZUpdateProductRequest)
  .output(ZUpdateProductResponse)
  .mutation(({ ctx, input }) => updateProduct(ctx.services.database.db, ctx.principal, input));
