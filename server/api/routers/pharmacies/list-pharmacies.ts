import { keyOrUserProcedure } from '@/server/api/procedures';
import { listConnections } from '@/server/domain/pharmacies/connections';
import { listPharmaciesMeta, ZListPharmaciesRequest, ZListPharmaciesResponse } from './list-pharmacies.types';

export const listPharmaciesRoute = keyOrUserProcedure
  .meta(listPharmaciesMeta)
  .input(ZListPharmaciesRequest)
  .output(ZListPharmaciesResponse)
  .query(({ ctx, input }) => listConnections(ctx.services.database.db, ctx.principal, { limit: input.limit, startingAfter: input.starting_after }));
