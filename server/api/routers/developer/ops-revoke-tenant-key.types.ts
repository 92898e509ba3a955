import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZApiKeyPublic } from './api-key.types';

export const opsRevokeTenantKeyMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'DELETE',
    path: '/developer/keys/ops/tenants/{tenantId}/{id}',
    tags: ['developer', 'ops'],
    summary: 'Ops: revoke a tenant’s key',
    errorResponses: { 404: 'No such tenant or key' },
  },
};
export const ZOpsRevokeTenantKeyRequest = z.object({ tenantId: zId('Tenant'), id: zId('API key') });
export const ZOpsRevokeTenantKeyResponse = ZApiKeyPublic;
