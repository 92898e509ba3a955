import { keyOrUserProcedure } from '@/server/api/procedures';
import { listCatalogs } from '@/server/domain/catalog/catalogs';
import { listCatalogsMeta, ZListCatalogsRequest, ZListCatalogsResponse } from './list-catalogs.types';

export const listCatalogsRoute = keyOrUserProcedure
  .meta(listCatalogsMeta)
  .input(ZListCatalogsRequest)
  .output(ZListCatalogsResponse)
  .query(({ ctx, input: { starting_after, ...rest } }) => listCatalogs(ctx.services.database.db, ctx.principal, { ...rest, startingAfter: starting_after }));
