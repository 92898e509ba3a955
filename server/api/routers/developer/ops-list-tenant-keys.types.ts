import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZApiKeyPublic } from './api-key.types';

export const opsListTenantKeysMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'GET',
    path: '/developer/keys/ops/tenants/{tenantId}',
    tags: ['developer', 'ops'],
    summary: 'Ops: list a tenant’s API keys (both modes), newest first',
    errorResponses: { 404: 'No such tenant' },
  },
};
export const ZOpsListTenantKeysRequest = z.object({ tenantId: zId('Tenant') });
export const ZOpsListTenantKeysResponse = z.array(ZApiKeyPublic);
