import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZCreateApiKey, ZCreateApiKeyResponse } from './api-key.types';

export const opsCreateTenantKeyMeta: OpenApiMeta<ProcedureMeta> = {
  successStatus: 201,
  secretFields: ['key'],
  openapi: {
    method: 'POST',
    path: '/developer/keys/ops/tenants/{tenantId}',
    tags: ['developer', 'ops'],
    summary: 'Ops: mint a key for any tenant; relay the plaintext to the clinic over a secure channel',
    errorResponses: { 400: 'Invalid request', 403: 'Not an ops credential, or an ops scope requested', 404: 'No such tenant' },
  },
};
export const ZOpsCreateTenantKeyRequest = ZCreateApiKey.extend({ tenantId: zId('Tenant') });
export const ZOpsCreateTenantKeyResponse = ZCreateApiKeyResponse;
