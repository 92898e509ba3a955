import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { TENANT_ROLES } from '@/server/domain/auth/roles';
import { zEmail, zNpi, zPassword, zStates, ZUser } from '../auth/auth.types';

export const createTenantUserMeta: OpenApiMeta<ProcedureMeta> = {
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/ops/tenants/{tenantId}/users',
    tags: ['ops'],
    summary: 'Ops: create a user in a tenant; npiVerified attests that ops checked the NPI',
    errorResponses: { 404: 'No such tenant', 409: 'E-mail already registered' },
  },
};
export const ZCreateTenantUserRequest = z.strictObject({
  tenantId: zId('Tenant'),
  email: zEmail,
  password: zPassword,
  name: z.string().trim().min(1).max(200).optional(),
  role: z.enum(TENANT_ROLES),
  npi: zNpi.optional(),
  licensedStates: zStates.optional(),
  npiVerified: z.boolean().default(false),
});
export const ZCreateTenantUserResponse = ZUser;
