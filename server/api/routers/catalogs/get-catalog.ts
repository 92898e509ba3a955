import { keyOrUserProcedure } from '@/server/api/procedures';
import { getCatalog } from '@/server/domain/catalog/catalogs';
import { getCatalogMeta, ZGetCatalogRequest, ZGetCatalogResponse } from './get-catalog.types';

export const getCatalogRoute = keyOrUserProcedure
  .meta(getCatalogMeta)
  .input(ZGetCatalogRequest)
  .output(ZGetCatalogResponse)
  .query(({ ctx, input }) => getCatalog(ctx.services.database.db, ctx.principal, input.id));
