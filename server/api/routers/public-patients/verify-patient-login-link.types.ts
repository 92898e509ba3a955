import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZPatientSession, zEmbedKey } from './public-patients.types';
import { VERIFY_ERRORS } from './verify-patient-login.types';

export const verifyPatientLoginLinkMeta: OpenApiMeta<ProcedureMeta> = {
  idempotent: false,
  openapi: {
    method: 'POST',
    path: '/public/patients/{embedKey}/login/verify-link',
    tags: ['patient portal'],
    protect: false,
    summary: "A patient exchanges the sign-in mail's one-click link (its `t` parameter) for a session; the link and the code are one secret",
    errorResponses: VERIFY_ERRORS,
  },
};
export const ZVerifyPatientLoginLinkRequest = z.strictObject({
  embedKey: zEmbedKey,
  token: z.string().max(100).meta({ description: 'The `t` parameter of the sign-in link' }),
});
export const ZVerifyPatientLoginLinkResponse = ZPatientSession;
