import { portalProcedure } from '@/server/api/procedures';
import { errors } from '@/server/lib/errors';
import { getPatientPortalMeta, ZGetPatientPortalRequest, ZGetPatientPortalResponse } from './get-patient-portal.types';

/** Patient-safe facts of the key only: never its origins, its name or anything of the clinic's account. */
export const getPatientPortalRoute = portalProcedure
  .meta(getPatientPortalMeta)
  .input(ZGetPatientPortalRequest)
  .output(ZGetPatientPortalResponse)
  .query(({ ctx }) => {
    const key = ctx.portalKey;
    if (!key) throw errors.notFound('embed key');
    return { clinicName: key.clinicName, livemode: key.livemode, theme: { cssVariables: key.cssVariables } };
  });
