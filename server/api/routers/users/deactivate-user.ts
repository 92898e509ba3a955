import { keyOrUserProcedure } from '@/server/api/procedures';
import { deactivateTenantUser } from '@/server/domain/auth/user-admin';
import { toUserDto } from '@/server/domain/auth/users';
import { deactivateUserMeta, ZDeactivateUserRequest, ZDeactivateUserResponse } from './deactivate-user.types';

export const deactivateUserRoute = keyOrUserProcedure
  .meta(deactivateUserMeta)
  .input(ZDeactivateUserRequest)
  .output(ZDeactivateUserResponse)
  .mutation(async ({ ctx, input }) => toUserDto(await deactivateTenantUser(ctx.services.database.db, ctx.principal, input.id)));
