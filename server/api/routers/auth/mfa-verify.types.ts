import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZSessionTokens, zTotp } from './auth.types';

export const mfaVerifyMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'POST',
    path: '/auth/mfa/verify',
    tags: ['auth'],
    protect: false,
    summary: 'With a bearer session and {code}: confirm enrollment. With {mfaToken, code}: complete a sign-in.',
    errorResponses: { 400: 'Wrong code while enrolling', 401: 'Wrong code or invalid MFA token', 429: 'Too many attempts' },
  },
};
export const ZMfaVerifyRequest = z.strictObject({ code: zTotp, mfaToken: z.string().min(1).max(2000).optional() });
export const ZMfaVerifyResponse = z.union([ZSessionTokens, z.object({ mfaEnabled: z.literal(true) })]);
