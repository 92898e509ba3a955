import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';

export const logoutMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'POST',
    path: '/auth/logout',
    tags: ['auth'],
    summary: 'End this session (the family of refreshToken), or every session of the user when it is omitted',
  },
};
export const ZLogoutRequest = z.strictObject({ refreshToken: z.string().min(1).max(200).optional() });
export const ZLogoutResponse = z.object({ ok: z.literal(true) });
