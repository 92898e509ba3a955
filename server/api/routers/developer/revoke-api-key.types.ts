import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZApiKeyPublic } from './api-key.types';

export const revokeApiKeyMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'keys.manage',
  openapi: {
    method: 'DELETE',
    path: '/developer/keys/{id}',
    tags: ['developer'],
    summary: 'Revoke an API key (irreversible; repeating it is a no-op)',
    errorResponses: { 404: 'No such key on this tenant' },
  },
};
export const ZRevokeApiKeyRequest = z.object({ id: zId('API key') });
export const ZRevokeApiKeyResponse = ZApiKeyPublic;
