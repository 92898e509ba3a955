import { opsProcedure } from '@/server/api/procedures';
import { attestLicenses } from '@/server/domain/auth/licenses';
import { credentialActor } from '@/server/domain/auth/principal';
import { toUserDto } from '@/server/domain/auth/users';
import { requireTenant } from '@/server/domain/ops/tenants';
import { verifyLicensesMeta, ZVerifyLicensesRequest, ZVerifyLicensesResponse } from './verify-licenses.types';

export const verifyLicensesRoute = opsProcedure
  .meta(verifyLicensesMeta)
  .input(ZVerifyLicensesRequest)
  .output(ZVerifyLicensesResponse)
  .mutation(async ({ ctx, input }) => {
    const db = ctx.services.database.db;
    await requireTenant(db, input.tenantId);
    return toUserDto(await attestLicenses(db, input.tenantId, input.id, input.states, credentialActor(ctx.principal)));
  });
