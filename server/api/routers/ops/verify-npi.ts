import { opsProcedure } from '@/server/api/procedures';
import { attestNpi, toUserDto } from '@/server/domain/auth/users';
import { requireTenant } from '@/server/domain/ops/tenants';
import { verifyNpiMeta, ZVerifyNpiRequest, ZVerifyNpiResponse } from './verify-npi.types';

export const verifyNpiRoute = opsProcedure
  .meta(verifyNpiMeta)
  .input(ZVerifyNpiRequest)
  .output(ZVerifyNpiResponse)
  .mutation(async ({ ctx, input }) => {
    const db = ctx.services.database.db;
    await requireTenant(db, input.tenantId);
    return toUserDto(await attestNpi(db, input.tenantId, input.id));
  });
