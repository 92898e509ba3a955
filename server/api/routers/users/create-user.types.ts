import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { TENANT_ROLES, USERS_MANAGE } from '@/server/domain/auth/roles';
import { zEmail, zNpi, zStates, ZUser } from '../auth/auth.types';

export const createUserMeta: OpenApiMeta<ProcedureMeta> = {
  scope: USERS_MANAGE,
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/users',
    tags: ['users'],
    summary: 'Invite a person to the tenant; they choose a password through an e-mailed one-time link',
    errorResponses: { 403: 'Role above your own, or not an owner/admin session', 409: 'E-mail already registered' },
  },
};
export const ZCreateUserRequest = z.strictObject({
  email: zEmail,
  name: z.string().trim().min(1).max(200).optional(),
  role: z.enum(TENANT_ROLES),
  npi: zNpi.optional(),
  licensedStates: zStates.optional(),
});
export const ZCreateUserResponse = ZUser;
