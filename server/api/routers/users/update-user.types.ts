import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { TENANT_ROLES, USERS_MANAGE } from '@/server/domain/auth/roles';
import { zNpi, zStates, ZUser } from '../auth/auth.types';

export const updateUserMeta: OpenApiMeta<ProcedureMeta> = {
  scope: USERS_MANAGE,
  openapi: {
    method: 'PATCH',
    path: '/users/{id}',
    tags: ['users'],
    summary: 'Change a person’s role, name, NPI or licensed states (send only changes)',
    errorResponses: { 403: 'Role above your own', 404: 'No such user on this tenant' },
  },
};
export const ZUpdateUserRequest = z.strictObject({
  id: zId('User'),
  name: z.string().trim().min(1).max(200).nullable().optional(),
  role: z.enum(TENANT_ROLES).optional(),
  npi: zNpi.nullable().optional(),
  licensedStates: zStates.optional(),
});
export const ZUpdateUserResponse = ZUser;
