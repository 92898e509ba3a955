import { router } from '@/server/api/trpc';
import { getPatientPortalRoute } from './get-patient-portal';
import { requestPatientLoginRoute } from './request-patient-login';
import { verifyPatientLoginRoute } from './verify-patient-login';
import { verifyPatientLoginLinkRoute } from './verify-patient-login-link';

/** The patient portal's public paths (DESIGN decision 39), named by an embed key, no credential. */
export const publicPatientsRouter = router({
  getPatientPortal: getPatientPortalRoute,
  requestPatientLogin: requestPatientLoginRoute,
  verifyPatientLogin: verifyPatientLoginRoute,
  verifyPatientLoginLink: verifyPatientLoginLinkRoute,
});
