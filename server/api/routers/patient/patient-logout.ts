import { patientProcedure } from '@/server/api/procedures';
import { endPatientSession } from '@/server/domain/patients/sign-in/patient-sessions';
import { patientLogoutMeta, ZPatientLogoutRequest, ZPatientLogoutResponse } from './patient-logout.types';

export const patientLogoutRoute = patientProcedure
  .meta(patientLogoutMeta)
  .input(ZPatientLogoutRequest)
  .output(ZPatientLogoutResponse)
  .mutation(({ ctx }) => endPatientSession(ctx.services.database.db, ctx.patient));
