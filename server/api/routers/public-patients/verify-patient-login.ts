import { portalProcedure } from '@/server/api/procedures';
import { verifyPatientCode } from '@/server/domain/patients/sign-in/verify-login';
import { verifyPatientLoginMeta, ZVerifyPatientLoginRequest, ZVerifyPatientLoginResponse } from './verify-patient-login.types';

export const verifyPatientLoginRoute = portalProcedure
  .meta(verifyPatientLoginMeta)
  .input(ZVerifyPatientLoginRequest)
  .output(ZVerifyPatientLoginResponse)
  .mutation(({ ctx, input }) => verifyPatientCode(ctx.services.auth, ctx.portalKey, input, ctx.clientAddress));
