import { keyOrUserProcedure } from '@/server/api/procedures';
import { listPatients } from '@/server/domain/patients/patients';
import { listPatientsMeta, ZListPatientsRequest, ZListPatientsResponse } from './list-patients.types';

export const listPatientsRoute = keyOrUserProcedure
  .meta(listPatientsMeta)
  .input(ZListPatientsRequest)
  .output(ZListPatientsResponse)
  .query(({ ctx, input }) =>
    listPatients(ctx.services.database.db, ctx.principal, { limit: input.limit, startingAfter: input.starting_after }, ctx.state.requestId),
  );
