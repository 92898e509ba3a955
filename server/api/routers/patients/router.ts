import { router } from '@/server/api/trpc';
import { createPatientRoute } from './create-patient';
import { getPatientRoute } from './get-patient';
import { listPatientAccessLogRoute } from './list-patient-access-log';
import { listPatientsRoute } from './list-patients';
import { updatePatientRoute } from './update-patient';

// Fixed paths before `{id}` paths: the first matching path wins.
export const patientsRouter = router({
  listPatients: listPatientsRoute,
  createPatient: createPatientRoute,
  listPatientAccessLog: listPatientAccessLogRoute,
  getPatient: getPatientRoute,
  updatePatient: updatePatientRoute,
});
