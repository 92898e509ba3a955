import { keyOrUserProcedure } from '@/server/api/procedures';
import { syncCatalog } from '@/server/domain/pharmacies/sync-catalog';
import { deliveryOptions } from '@/server/domain/webhooks/options';
import { syncPharmacyCatalogMeta, ZSyncPharmacyCatalogRequest, ZSyncPharmacyCatalogResponse } from './sync-pharmacy-catalog.types';

export const syncPharmacyCatalogRoute = keyOrUserProcedure
  .meta(syncPharmacyCatalogMeta)
  .input(ZSyncPharmacyCatalogRequest)
  .output(ZSyncPharmacyCatalogResponse)
  .mutation(({ ctx, input }) => syncCatalog(ctx.services.database.db, ctx.principal, input.id, deliveryOptions(ctx.services.config).policy));
