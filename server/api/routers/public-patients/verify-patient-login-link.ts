import { portalProcedure } from '@/server/api/procedures';
import { verifyPatientLink } from '@/server/domain/patients/sign-in/verify-login';
import { verifyPatientLoginLinkMeta, ZVerifyPatientLoginLinkRequest, ZVerifyPatientLoginLinkResponse } from './verify-patient-login-link.types';

export const verifyPatientLoginLinkRoute = portalProcedure
  .meta(verifyPatientLoginLinkMeta)
  .input(ZVerifyPatientLoginLinkRequest)
  .output(ZVerifyPatientLoginLinkResponse)
  .mutation(({ ctx, input }) => verifyPatientLink(ctx.services.auth, ctx.portalKey, input.token, ctx.clientAddress));
