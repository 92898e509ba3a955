import { router } from '@/server/api/trpc';
import { getPatientOrderRoute } from './get-patient-order';
import { getPatientProfileRoute } from './get-patient-profile';
import { listPatientOrdersRoute } from './list-patient-orders';
import { listPatientSubmissionsRoute } from './list-patient-submissions';
import { patientLogoutRoute } from './patient-logout';
import { updatePatientNotificationsRoute } from './update-patient-notifications';
import { updatePatientOrderShippingRoute } from './update-patient-order-shipping';

/** A signed-in patient's own endpoints (DESIGN decision 40): a patient session token only. Fixed paths before `{id}` paths. */
export const patientRouter = router({
  getPatientProfile: getPatientProfileRoute,
  updatePatientNotifications: updatePatientNotificationsRoute,
  listPatientOrders: listPatientOrdersRoute,
  listPatientSubmissions: listPatientSubmissionsRoute,
  getPatientOrder: getPatientOrderRoute,
  updatePatientOrderShipping: updatePatientOrderShippingRoute,
  patientLogout: patientLogoutRoute,
});
