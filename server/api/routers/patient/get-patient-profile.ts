import { patientProcedure } from '@/server/api/procedures';
import { readPatientProfile } from '@/server/domain/patients/portal/profile';
import { getPatientProfileMeta, ZGetPatientProfileRequest, ZGetPatientProfileResponse } from './get-patient-profile.types';

export const getPatientProfileRoute = patientProcedure
  .meta(getPatientProfileMeta)
  .input(ZGetPatientProfileRequest)
  .output(ZGetPatientProfileResponse)
  .query(({ ctx }) => readPatientProfile(ctx.services.database.db, ctx.patient, ctx.state.requestId));
