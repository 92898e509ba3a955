import { keyOrUserProcedure } from '@/server/api/procedures';
import { approveCatalog } from '@/server/domain/catalog/catalogs';
import { approveCatalogMeta, ZApproveCatalogRequest, ZApproveCatalogResponse } from './approve-catalog.types';

export const approveCatalogRoute = keyOrUserProcedure
  .meta(approveCatalogMeta)
  .input(ZApproveCatalogRequest)
  .output(ZApproveCatalogResponse)
  .mutation(({ ctx, input }) => approveCatalog(ctx.services.database.db, ctx.principal, input.id));
