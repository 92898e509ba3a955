import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { USERS_MANAGE } from '@/server/domain/auth/roles';
import { ZUser } from '../auth/auth.types';

export const deactivateUserMeta: OpenApiMeta<ProcedureMeta> = {
  scope: USERS_MANAGE,
  openapi: {
    method: 'DELETE',
    path: '/users/{id}',
    tags: ['users'],
    summary: 'Deactivate a person; their sessions end at once',
    errorResponses: { 403: 'Target outranks you', 404: 'No such user on this tenant', 409: 'Cannot deactivate yourself' },
  },
};
export const ZDeactivateUserRequest = z.object({ id: zId('User') });
export const ZDeactivateUserResponse = ZUser;
