import { apiKeys } from '@/db/schema';
import type { Queryable } from '@/server/db/types';
import { keyScope, toPublicKey } from '@/server/domain/developer/api-keys';
import { requireTenant, toTenantDto } from '@/server/domain/ops/tenants';
import { requireUser } from './current-user';
import type { Principal } from './principal';
import { toUserDto } from './users';

/** The caller as GET /auth/me shows it: tenant, user and key re-read, so changes since sign-in show. */
export async function describeCaller(q: Queryable, p: Principal) {
  const tenant = p.tenantId ? toTenantDto(await requireTenant(q, p.tenantId)) : null;
  const user = p.userId ? toUserDto(await requireUser(q, p.userId)) : null;
  // Only a clinic's key has a public form; the platform ops key belongs to no tenant.
  const key = p.keyId && p.tenantId ? await keyScope(q, { tenantId: p.tenantId, livemode: p.livemode }).get(apiKeys, p.keyId) : undefined;
  const mode = p.livemode ? ('live' as const) : ('sandbox' as const);
  return { kind: p.kind, mode, scopes: [...p.scopes], tenant, user, apiKey: key ? toPublicKey(key) : null };
}
