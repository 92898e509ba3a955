import { portalProcedure } from '@/server/api/procedures';
import { requestPatientLogin } from '@/server/domain/patients/sign-in/request-login';
import { requestPatientLoginMeta, ZRequestPatientLoginRequest, ZRequestPatientLoginResponse } from './request-patient-login.types';

export const requestPatientLoginRoute = portalProcedure
  .meta(requestPatientLoginMeta)
  .input(ZRequestPatientLoginRequest)
  .output(ZRequestPatientLoginResponse)
  .mutation(({ ctx, input }) => requestPatientLogin(ctx.services.auth, ctx.portalKey, input, ctx.clientAddress));
