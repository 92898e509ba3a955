import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZCreateEmbedKey, ZEmbedKey } from './embed-key.types';

export const createEmbedKeyMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'flows.manage',
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/embed-keys',
    tags: ['embed'],
    summary: 'Create an embed key (public by design) for the widget, hosted pages and public intake of this mode',
    errorResponses: { 400: 'An invalid origin (param allowedOrigins.<i>), a flowId that is no flow of this account and mode (param flowId), or another bad field', 403: 'Missing flows.manage' },
  },
};
export const ZCreateEmbedKeyRequest = ZCreateEmbedKey;
export const ZCreateEmbedKeyResponse = ZEmbedKey;
