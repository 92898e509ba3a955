import { keyOrUserProcedure } from '@/server/api/procedures';
import { createConnection } from '@/server/domain/pharmacies/connections';
import { deliveryOptions } from '@/server/domain/webhooks/options';
import { createPharmacyMeta, ZCreatePharmacyRequest, ZCreatePharmacyResponse } from './create-pharmacy.types';

export const createPharmacyRoute = keyOrUserProcedure
  .meta(createPharmacyMeta)
  .input(ZCreatePharmacyRequest)
  .output(ZCreatePharmacyResponse)
  .mutation(({ ctx, input }) => createConnection(ctx.services.database.db, ctx.principal, input, deliveryOptions(ctx.services.config).policy));
