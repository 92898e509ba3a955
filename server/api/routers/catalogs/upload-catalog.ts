import { keyOrUserProcedure } from '@/server/api/procedures';
import { uploadCatalog } from '@/server/domain/catalog/catalogs';
import { uploadCatalogMeta, ZUploadCatalogRequest, ZUploadCatalogResponse } from './upload-catalog.types';

export const uploadCatalogRoute = keyOrUserProcedure
  .meta(uploadCatalogMeta)
  .input(ZUploadCatalogRequest)
  .output(ZUploadCatalogResponse)
  .mutation(({ ctx, input }) => uploadCatalog(ctx.services.database.db, ctx.principal, input));
