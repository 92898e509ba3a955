import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zEmail, ZLoginResult } from './auth.types';

export const magicLinkMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'POST',
    path: '/auth/magic-link',
    tags: ['auth'],
    protect: false,
    summary: 'E-mail a single-use sign-in link (15 minutes); the answer is the same whether or not the account exists',
  },
};
export const ZMagicLinkRequest = z.strictObject({ email: zEmail });
export const ZMagicLinkResponse = z.object({ sent: z.literal(true) });

export const magicLinkVerifyMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'POST',
    path: '/auth/magic-link/verify',
    tags: ['auth'],
    protect: false,
    summary: 'Exchange a magic-link token for a session (or an MFA challenge)',
    errorResponses: { 401: 'Invalid, expired or used link' },
  },
};
export const ZMagicLinkVerifyRequest = z.strictObject({ token: z.string().min(1).max(200) });
export const ZMagicLinkVerifyResponse = ZLoginResult;
