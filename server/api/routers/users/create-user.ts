import { keyOrUserProcedure } from '@/server/api/procedures';
import { inviteUser } from '@/server/domain/auth/invites';
import { credentialActor } from '@/server/domain/auth/principal';
import { granterRole } from '@/server/domain/auth/user-admin';
import { createUserMeta, ZCreateUserRequest, ZCreateUserResponse } from './create-user.types';

export const createUserRoute = keyOrUserProcedure
  .meta(createUserMeta)
  .input(ZCreateUserRequest)
  .output(ZCreateUserResponse)
  .mutation(({ ctx, input }) => inviteUser(ctx.services.auth, ctx.principal.tenantId, granterRole(ctx.principal), input, credentialActor(ctx.principal)));
