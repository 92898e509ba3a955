import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZLoginResult, zEmail } from './auth.types';

export const loginMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'POST',
    path: '/auth/login',
    tags: ['auth'],
    protect: false,
    summary: 'Sign in with e-mail and password; accounts with two-factor authentication get an MFA token',
    errorResponses: { 401: 'Wrong e-mail or password (one answer for both)', 429: 'Too many attempts' },
  },
};
export const ZLoginRequest = z.strictObject({ email: zEmail, password: z.exactString().min(1).max(200) });
export const ZLoginResponse = ZLoginResult;
