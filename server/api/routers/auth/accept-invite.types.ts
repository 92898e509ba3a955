import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zPassword, ZSessionTokens } from './auth.types';

export const acceptInviteMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'POST',
    path: '/auth/accept-invite',
    tags: ['auth'],
    protect: false,
    summary: 'Set the password of an invited user through the one-time link token, and sign in',
    errorResponses: { 401: 'Invalid, expired or used invitation' },
  },
};
export const ZAcceptInviteRequest = z.strictObject({ token: z.string().min(1).max(200), password: zPassword });
export const ZAcceptInviteResponse = ZSessionTokens;
