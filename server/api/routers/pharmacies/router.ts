import { router } from '@/server/api/trpc';
import { createPharmacyRoute } from './create-pharmacy';
import { getRoutingPolicyRoute } from './get-routing-policy';
import { listPharmaciesRoute } from './list-pharmacies';
import { setRoutingPolicyRoute } from './set-routing-policy';
import { syncPharmacyCatalogRoute } from './sync-pharmacy-catalog';
import { updatePharmacyRoute } from './update-pharmacy';
import { getPharmacyVerificationRoute } from './get-pharmacy-verification';
import { verifyPharmacyRoute } from './verify-pharmacy';

// `/pharmacies/routing-policy` comes before the `{id}` paths: the first matching path wins.
export const pharmaciesRouter = router({
  getRoutingPolicy: getRoutingPolicyRoute,
  setRoutingPolicy: setRoutingPolicyRoute,
  listPharmacies: listPharmaciesRoute,
  createPharmacy: createPharmacyRoute,
  updatePharmacy: updatePharmacyRoute,
  syncPharmacyCatalog: syncPharmacyCatalogRoute,
  verifyPharmacy: verifyPharmacyRoute,
  getPharmacyVerification: getPharmacyVerificationRoute,
});
