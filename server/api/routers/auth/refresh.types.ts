import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZSessionTokens } from './auth.types';

export const refreshMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'POST',
    path: '/auth/refresh',
    tags: ['auth'],
    protect: false,
    summary: 'Rotate a refresh token; the same token again within 10 s gets the same pair, a used one later revokes its whole family',
    errorResponses: { 401: 'Invalid, expired or reused refresh token' },
  },
};
export const ZRefreshRequest = z.strictObject({ refreshToken: z.string().min(1).max(200) });
export const ZRefreshResponse = ZSessionTokens;
