import { opsProcedure } from '@/server/api/procedures';
import { credentialActor } from '@/server/domain/auth/principal';
import { toUserDto } from '@/server/domain/auth/users';
import { createTenantUser } from '@/server/domain/ops/tenant-users';
import { createTenantUserMeta, ZCreateTenantUserRequest, ZCreateTenantUserResponse } from './create-tenant-user.types';

export const createTenantUserRoute = opsProcedure
  .meta(createTenantUserMeta)
  .input(ZCreateTenantUserRequest)
  .output(ZCreateTenantUserResponse)
  .mutation(async ({ ctx, input: { tenantId, ...user } }) =>
    toUserDto(await createTenantUser(ctx.services.database.db, tenantId, user, credentialActor(ctx.principal))),
  );
