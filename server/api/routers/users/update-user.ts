import { keyOrUserProcedure } from '@/server/api/procedures';
import { credentialActor } from '@/server/domain/auth/principal';
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
    return toUserDto(await updateUser(db, ctx.principal.tenantId, id, patch, credentialActor(ctx.principal)));
  });
