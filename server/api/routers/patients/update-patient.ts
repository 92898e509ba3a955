import { keyOrUserProcedure } from '@/server/api/procedures';
import { updatePatient } from '@/server/domain/patients/patients';
import { updatePatientMeta, ZUpdatePatientRequest, ZUpdatePatientResponse } from './update-patient.types';

export const updatePatientRoute = keyOrUserProcedure
  .meta(updatePatientMeta)
  .input(ZUpdatePatientRequest)
  .output(ZUpdatePatientResponse)
  .mutation(({ ctx, input }) => updatePatient(ctx.services.database.db, ctx.principal, input, ctx.state.requestId));
