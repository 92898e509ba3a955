import { keyOrUserProcedure } from '@/server/api/procedures';
import { rejectCatalog } from '@/server/domain/catalog/catalogs';
import { rejectCatalogMeta, ZRejectCatalogRequest, ZRejectCatalogResponse } from './reject-catalog.types';

export const rejectCatalogRoute = keyOrUserProcedure
  .meta(rejectCatalogMeta)
  .input(ZRejectCatalogRequest)
  .output(ZRejectCatalogResponse)
  .mutation(({ ctx, input }) => rejectCatalog(ctx.services.database.db, ctx.principal, input.id, input.reason));
