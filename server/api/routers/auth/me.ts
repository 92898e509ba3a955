import { eq } from 'drizzle-orm';
import { apiKeys } from '@/db/schema';
import { authedProcedure } from '@/server/api/procedures';
import { requireUser } from '@/server/domain/auth/current-user';
import { toUserDto } from '@/server/domain/auth/users';
import { toPublicKey, requireTenant } from '@/server/domain/developer/api-keys';
import { toTenantDto } from '@/server/domain/ops/tenants';
import { meMeta, ZMeRequest, ZMeResponse } from './me.types';

export const meRoute = authedProcedure
  .meta(meMeta)
  .input(ZMeRequest)
  .output(ZMeResponse)
  .query(async ({ ctx }) => {
    const db = ctx.services.database.db;
    const p = ctx.principal;
    const tenant = p.tenantId ? toTenantDto(await requireTenant(db, p.tenantId)) : null;
    const user = p.userId ? toUserDto(await requireUser(db, p.userId)) : null;
    const [key] = p.keyId ? await db.select().from(apiKeys).where(eq(apiKeys.id, p.keyId)).limit(1) : [];
    const apiKey = key && key.tenantId ? toPublicKey(key) : null;
    return { kind: p.kind, mode: p.livemode ? ('live' as const) : ('sandbox' as const), scopes: [...p.scopes], tenant, user, apiKey };
  });
