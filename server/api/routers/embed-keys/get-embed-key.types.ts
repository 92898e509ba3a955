import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZEmbedKey } from './embed-key.types';

export const getEmbedKeyMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'flows.manage',
  openapi: {
    method: 'GET',
    path: '/embed-keys/{id}',
    tags: ['embed'],
    summary: 'One embed key',
    errorResponses: { 403: 'Missing flows.manage', 404: 'No such embed key on this tenant in this mode' },
  },
};
export const ZGetEmbedKeyRequest = z.object({ id: zId('Embed key') });
export const ZGetEmbedKeyResponse = ZEmbedKey;
