import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZUser } from '../auth/auth.types';

export const verifyNpiMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'POST',
    path: '/ops/tenants/{tenantId}/users/{id}/verify-npi',
    tags: ['ops'],
    summary: 'Ops: attest that the provider’s NPI was verified against the registry',
    errorResponses: { 404: 'No such tenant or user', 422: 'Not a provider with an NPI' },
  },
};
export const ZVerifyNpiRequest = z.object({ tenantId: zId('Tenant'), id: zId('User') });
export const ZVerifyNpiResponse = ZUser;
