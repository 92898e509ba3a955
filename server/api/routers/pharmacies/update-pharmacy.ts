import { keyOrUserProcedure } from '@/server/api/procedures';
import { resyncConnection } from '@/server/domain/orders/sync';
import { updateConnection } from '@/server/domain/pharmacies/connections';
import { deliveryOptions } from '@/server/domain/webhooks/options';
import { updatePharmacyMeta, ZUpdatePharmacyRequest, ZUpdatePharmacyResponse } from './update-pharmacy.types';

export const updatePharmacyRoute = keyOrUserProcedure
  .meta(updatePharmacyMeta)
  .input(ZUpdatePharmacyRequest)
  .output(ZUpdatePharmacyResponse)
  .mutation(async ({ ctx, input: { id, ...changes } }) => {
    const db = ctx.services.database.db;
    const updated = await updateConnection(db, ctx.principal, id, changes, deliveryOptions(ctx.services.config).policy);
    // A new script (or configuration) can change orders in flight sooner than their syncs were due.
    if (changes.settings !== undefined) await resyncConnection(db, ctx.principal, id);
    return updated;
  });
