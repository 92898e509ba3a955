import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZEmbedKey, ZUpdateEmbedKey } from './embed-key.types';

export const updateEmbedKeyMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'flows.manage',
  openapi: {
    method: 'PATCH',
    path: '/embed-keys/{id}',
    tags: ['embed'],
    summary: "Change an embed key's name, allowed origins, flow or questionnaires (send only the fields to change)",
    errorResponses: {
      400: 'An invalid origin (param allowedOrigins.<i>), a flowId that is no flow of this account and mode (param flowId), or another bad field',
      403: 'Missing flows.manage',
      404: 'No such embed key on this tenant in this mode',
      409: 'The key is revoked',
    },
  },
};
export const ZUpdateEmbedKeyRequest = ZUpdateEmbedKey.extend({ id: zId('Embed key') });
export const ZUpdateEmbedKeyResponse = ZEmbedKey;
