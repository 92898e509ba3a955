import { keyOrUserProcedure } from '@/server/api/procedures';
import { listProducts } from '@/server/domain/catalog/products';
import { listProductsMeta, ZListProductsRequest, ZListProductsResponse } from './list-products.types';
import { activeFilter } from './product.types';

export const listProductsRoute = keyOrUserProcedure
  .meta(listProductsMeta)
  .input(ZListProductsRequest)
  .output(ZListProductsResponse)
  .query(({ ctx, input }) =>
    listProducts(ctx.services.database.db, ctx.principal, { active: activeFilter(input.active), limit: input.limit, startingAfter: input.starting_after }),
  );
