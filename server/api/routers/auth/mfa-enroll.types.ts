import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zReplayNote } from '@/server/api/schemas/common';

export const mfaEnrollMeta: OpenApiMeta<ProcedureMeta> = {
  secretFields: ['secret', 'otpauthUri'],
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
  secret: z.string().nullable().meta({ description: 'Base32 TOTP secret; null in an Idempotency-Key replay' }),
  otpauthUri: z.string().nullable().meta({ description: 'otpauth:// URI for authenticator apps (QR code); null in an Idempotency-Key replay' }),
  note: zReplayNote,
});
