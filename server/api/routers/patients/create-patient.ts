import { keyOrUserProcedure } from '@/server/api/procedures';
import { createPatient } from '@/server/domain/patients/patients';
import { createPatientMeta, ZCreatePatientRequest, ZCreatePatientResponse } from './create-patient.types';

export const createPatientRoute = keyOrUserProcedure
  .meta(createPatientMeta)
  .input(ZCreatePatientRequest)
  .output(ZCreatePatientResponse)
  .mutation(({ ctx, input }) => createPatient(ctx.services.database.db, ctx.principal, input, ctx.state.requestId));
