import { keyOrUserProcedure } from '@/server/api/procedures';
import { administerUser, endAllSessions } from '@/server/domain/auth/user-admin';
import { deactivateUser, toUserDto } from '@/server/domain/auth/users';
import { errors } from '@/server/lib/errors';
import { deactivateUserMeta, ZDeactivateUserRequest, ZDeactivateUserResponse } from './deactivate-user.types';

export const deactivateUserRoute = keyOrUserProcedure
  .meta(deactivateUserMeta)
  .input(ZDeactivateUserRequest)
  .output(ZDeactivateUserResponse)
  .mutation(async ({ ctx, input }) => {
    const db = ctx.services.database.db;
    if (input.id === ctx.principal.userId) throw errors.conflict('You cannot deactivate your own account.', 'cannot_deactivate_self');
    await administerUser(db, ctx.principal, input.id);
    const user = await db.transaction(async (tx) => {
      const row = await deactivateUser(tx, ctx.principal.tenantId, input.id);
      await endAllSessions(tx, input.id);
      return row;
    });
    return toUserDto(user);
  });
