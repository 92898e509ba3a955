import { keyOrUserProcedure } from '@/server/api/procedures';
import { listUsers } from '@/server/domain/auth/users';
import { listUsersMeta, ZListUsersRequest, ZListUsersResponse } from './list-users.types';

export const listUsersRoute = keyOrUserProcedure
  .meta(listUsersMeta)
  .input(ZListUsersRequest)
  .output(ZListUsersResponse)
  .query(({ ctx }) => listUsers(ctx.services.database.db, ctx.principal.tenantId));
