import { patientProcedure } from '@/server/api/procedures';
import { listPatientSubmissions } from '@/server/domain/patients/portal/submissions';
import { listPatientSubmissionsMeta, ZListPatientSubmissionsRequest, ZListPatientSubmissionsResponse } from './list-patient-submissions.types';

export const listPatientSubmissionsRoute = patientProcedure
  .meta(listPatientSubmissionsMeta)
  .input(ZListPatientSubmissionsRequest)
  .output(ZListPatientSubmissionsResponse)
  .query(({ ctx }) => listPatientSubmissions(ctx.services.database.db, ctx.patient, ctx.state.requestId));
