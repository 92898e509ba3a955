import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { PORTAL_ERRORS, ZPatientSession, zEmbedKey, zLoginCode, zSignInEmail } from './public-patients.types';

export const VERIFY_ERRORS = { ...PORTAL_ERRORS, 400: 'A malformed e-mail, code or link token', 401: 'invalid_code: the code is wrong, expired, used or out of tries, or the e-mail or key matches no one (one answer for all)' };

export const verifyPatientLoginMeta: OpenApiMeta<ProcedureMeta> = {
  idempotent: false,
  openapi: {
    method: 'POST',
    path: '/public/patients/{embedKey}/login/verify',
    tags: ['patient portal'],
    protect: false,
    summary: 'A patient exchanges the e-mailed code for a session (30 minutes idle, 12 hours at most)',
    errorResponses: VERIFY_ERRORS,
  },
};
export const ZVerifyPatientLoginRequest = z.strictObject({ embedKey: zEmbedKey, email: zSignInEmail, code: zLoginCode });
export const ZVerifyPatientLoginResponse = ZPatientSession;
