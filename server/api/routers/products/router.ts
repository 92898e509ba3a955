import { router } from '@/server/api/trpc';
import { createProductRoute } from './create-product';
import { listProductsRoute } from './list-products';
import { updateProductRoute } from './update-product';

export const productsRouter = router({
  listProducts: listProductsRoute,
  createProduct: createProductRoute,
  updateProduct: updateProductRoute,
});
