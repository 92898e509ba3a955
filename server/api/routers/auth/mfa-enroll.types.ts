import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';

export const mfaEnrollMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'POST',
    path: '/auth/mfa/enroll',
    tags: ['auth'],
    summary: 'Start two-factor enrollment: a TOTP secret and its otpauth:// URI, confirmed by the first code',
    errorResponses: { 409: 'Already enabled' },
  },
};
export const ZMfaEnrollRequest = z.object({});
export const ZMfaEnrollResponse = z.object({
  secret: z.string().meta({ description: 'Base32 TOTP secret' }),
  otpauthUri: z.string().meta({ description: 'otpauth:// URI for authenticator apps (QR code)' }),
});
