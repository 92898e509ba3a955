import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { ZEmbedKey } from './embed-key.types';

export const listEmbedKeysMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'flows.manage',
  openapi: {
    method: 'GET',
    path: '/embed-keys',
    tags: ['embed'],
    summary: "List the mode's embed keys, newest first (revoked ones included, with revokedAt)",
    errorResponses: { 400: 'Bad page size or cursor', 403: 'Missing flows.manage' },
  },
};
export const ZListEmbedKeysRequest = z.object({ limit: zLimit(100, 100), starting_after: zStartingAfter });
export const ZListEmbedKeysResponse = z.array(ZEmbedKey);
