import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { USERS_MANAGE } from '@/server/domain/auth/roles';
import { ZUser } from '../auth/auth.types';

export const listUsersMeta: OpenApiMeta<ProcedureMeta> = {
  scope: USERS_MANAGE,
  openapi: { method: 'GET', path: '/users', tags: ['users'], summary: 'The tenant’s people, oldest first' },
};
export const ZListUsersRequest = z.object({});
export const ZListUsersResponse = z.array(ZUser);
