import { keyOrUserProcedure } from '@/server/api/procedures';
import { listAccessLog } from '@/server/domain/patients/access-log';
import { listPatientAccessLogMeta, ZListPatientAccessLogRequest, ZListPatientAccessLogResponse } from './list-patient-access-log.types';

export const listPatientAccessLogRoute = keyOrUserProcedure
  .meta(listPatientAccessLogMeta)
  .input(ZListPatientAccessLogRequest)
  .output(ZListPatientAccessLogResponse)
  .query(({ ctx, input }) =>
    listAccessLog(ctx.services.database.db, ctx.principal, { patientId: input.id, limit: input.limit, startingAfter: input.starting_after }),
  );
