import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZApiKeyPublic } from './api-key.types';

export const listApiKeysMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'keys.manage',
  openapi: { method: 'GET', path: '/developer/keys', tags: ['developer'], summary: 'List API keys, newest first' },
};
export const ZListApiKeysRequest = z.object({});
export const ZListApiKeysResponse = z.array(ZApiKeyPublic);
