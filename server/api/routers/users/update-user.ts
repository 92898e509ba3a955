import { keyOrUserProcedure } from '@/server/api/procedures';
import { licenseActorOf } from '@/server/domain/auth/licenses';
import { administerUser } from '@/server/domain/auth/user-admin';
import { updateUser, toUserDto } from '@/server/domain/auth/users';
import { updateUserMeta, ZUpdateUserRequest, ZUpdateUserResponse } from './update-user.types';

export const updateUserRoute = keyOrUserProcedure
  .meta(updateUserMeta)
  .input(ZUpdateUserRequest)
  .output(ZUpdateUserResponse)
  .mutation(async ({ ctx, input }) => {
    const { id, ...patch } = input;
    const db = ctx.services.database.db;
    await administerUser(db, ctx.principal, id, patch.role);
    return toUserDto(await updateUser(db, ctx.principal.tenantId, id, patch, licenseActorOf(ctx.principal)));
  });
