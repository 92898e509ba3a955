import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { zStates, ZUser } from '../auth/auth.types';

export const verifyLicensesMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'POST',
    path: '/ops/tenants/{tenantId}/users/{id}/verify-licenses',
    tags: ['ops'],
    summary: 'Ops: attest licensed states a clinic added for a provider, after checking them with the state boards',
    errorResponses: { 404: 'No such tenant or user', 422: 'Not a provider, or a state nobody asked to attest' },
  },
};
export const ZVerifyLicensesRequest = z.strictObject({
  tenantId: zId('Tenant'),
  id: zId('User'),
  states: zStates.min(1).meta({ description: 'The pending states ops checked; each must be pending on the provider' }),
});
export const ZVerifyLicensesResponse = ZUser;
