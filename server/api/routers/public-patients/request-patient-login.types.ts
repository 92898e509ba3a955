import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { PORTAL_ERRORS, zEmbedKey, zSignInDateOfBirth, zSignInEmail } from './public-patients.types';

export const requestPatientLoginMeta: OpenApiMeta<ProcedureMeta> = {
  successStatus: 202,
  idempotent: false,
  openapi: {
    method: 'POST',
    path: '/public/patients/{embedKey}/login',
    tags: ['patient portal'],
    protect: false,
    summary: "A patient asks to sign in to the clinic's portal: a 6-digit code and a one-click link are e-mailed to the address on file",
    description:
      'Always 202 `{sent: true}`, the same answer whether or not a patient of the key’s clinic and mode has this e-mail and date of birth (and for an unknown key): nothing tells whether a chart exists. When exactly one does, the code (10 minutes, one use, 5 tries) and a link carrying it are mailed to that address.',
    errorResponses: { ...PORTAL_ERRORS, 400: 'A malformed e-mail or date of birth' },
  },
};
export const ZRequestPatientLoginRequest = z.strictObject({ embedKey: zEmbedKey, email: zSignInEmail, dateOfBirth: zSignInDateOfBirth });
export const ZRequestPatientLoginResponse = z.object({ sent: z.literal(true) }).meta({ id: 'PatientLoginRequested' });
