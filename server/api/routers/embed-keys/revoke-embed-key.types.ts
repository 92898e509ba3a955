import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZEmbedKey } from './embed-key.types';

export const revokeEmbedKeyMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'flows.manage',
  openapi: {
    method: 'DELETE',
    path: '/embed-keys/{id}',
    tags: ['embed'],
    summary: 'Revoke an embed key for good (public paths answer 404 for it); revoking again changes nothing',
    errorResponses: { 403: 'Missing flows.manage', 404: 'No such embed key on this tenant in this mode' },
  },
};
export const ZRevokeEmbedKeyRequest = z.object({ id: zId('Embed key') });
export const ZRevokeEmbedKeyResponse = ZEmbedKey;
