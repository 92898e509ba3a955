import { patientProcedure } from '@/server/api/procedures';
import { updatePatientNotifications } from '@/server/domain/patients/portal/notifications';
import { updatePatientNotificationsMeta, ZUpdatePatientNotificationsRequest, ZUpdatePatientNotificationsResponse } from './update-patient-notifications.types';

export const updatePatientNotificationsRoute = patientProcedure
  .meta(updatePatientNotificationsMeta)
  .input(ZUpdatePatientNotificationsRequest)
  .output(ZUpdatePatientNotificationsResponse)
  .mutation(({ ctx, input }) => updatePatientNotifications(ctx.services.database.db, ctx.patient, input, ctx.state.requestId));
