import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZApiKeyPublic } from '../developer/api-key.types';
import { ZTenant } from '../ops/tenant.types';
import { ZUser } from './auth.types';

export const meMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: { method: 'GET', path: '/auth/me', tags: ['auth'], summary: 'The caller: user (with role, scopes, provider profile) or API key' },
};
export const ZMeRequest = z.object({});
export const ZMeResponse = z.object({
  kind: z.enum(['user', 'key']),
  mode: z.enum(['sandbox', 'live']),
  scopes: z.array(z.string()),
  tenant: ZTenant.nullable(),
  user: ZUser.nullable(),
  apiKey: ZApiKeyPublic.nullable(),
});
