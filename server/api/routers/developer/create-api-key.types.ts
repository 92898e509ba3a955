import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZCreateApiKey, ZCreateApiKeyResponse } from './api-key.types';

export const createApiKeyMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'keys.manage',
  successStatus: 201,
  secretFields: ['key'],
  openapi: {
    method: 'POST',
    path: '/developer/keys',
    tags: ['developer'],
    summary: 'Create an API key; the plaintext is returned once',
    errorResponses: { 400: 'Restricted key without a scope', 403: 'Scope outside the caller’s grant (a secret key needs a caller holding every tenant scope)' },
  },
};
export const ZCreateApiKeyRequest = ZCreateApiKey;
export { ZCreateApiKeyResponse };
