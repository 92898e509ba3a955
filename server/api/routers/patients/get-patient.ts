import { keyOrUserProcedure } from '@/server/api/procedures';
import { getPatient } from '@/server/domain/patients/patients';
import { getPatientMeta, ZGetPatientRequest, ZGetPatientResponse } from './get-patient.types';

export const getPatientRoute = keyOrUserProcedure
  .meta(getPatientMeta)
  .input(ZGetPatientRequest)
  .output(ZGetPatientResponse)
  .query(({ ctx, input }) => getPatient(ctx.services.database.db, ctx.principal, input, ctx.state.requestId));
