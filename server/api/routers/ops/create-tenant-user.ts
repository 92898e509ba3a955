import { opsProcedure } from '@/server/api/procedures';
import { licenseActorOf } from '@/server/domain/auth/licenses';
import { createUser, toUserDto } from '@/server/domain/auth/users';
import { requireTenant } from '@/server/domain/developer/api-keys';
import { createTenantUserMeta, ZCreateTenantUserRequest, ZCreateTenantUserResponse } from './create-tenant-user.types';

export const createTenantUserRoute = opsProcedure
  .meta(createTenantUserMeta)
  .input(ZCreateTenantUserRequest)
  .output(ZCreateTenantUserResponse)
  .mutation(async ({ ctx, input }) => {
    const { tenantId, ...user } = input;
    return ctx.services.database.db.transaction(async (tx) => {
      await requireTenant(tx, tenantId);
      return toUserDto(await createUser(tx, tenantId, { ...user, licensesAttested: true }, licenseActorOf(ctx.principal)));
    });
  });
