import { keyOrUserProcedure } from '@/server/api/procedures';
import { updatePharmacy } from '@/server/domain/pharmacies/update-pharmacy';
import { deliveryOptions } from '@/server/domain/webhooks/options';
import { updatePharmacyMeta, ZUpdatePharmacyRequest, ZUpdatePharmacyResponse } from './update-pharmacy.types';

export const updatePharmacyRoute = keyOrUserProcedure
  .meta(updatePharmacyMeta)
  .input(ZUpdatePharmacyRequest)
  .output(ZUpdatePharmacyResponse)
  .mutation(({ ctx, input: { id, ...changes } }) =>
    updatePharmacy(ctx.services.database.db, ctx.principal, id, changes, deliveryOptions(ctx.services.config).policy),
  );
