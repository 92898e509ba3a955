import type { Queryable } from '@/server/db/types';
import type { LicenseActor } from '@/server/domain/auth/licenses';
import { createUser, type NewUser, type UserRow } from '@/server/domain/auth/users';
import { requireTenant } from './tenants';

/**
 * Ops adds a person to a clinic. The states ops enters are its attestation (no clinic claim waits on them);
 * the tenant check shares the insert's transaction so a 404 writes nothing.
 */
export async function createTenantUser(q: Queryable, tenantId: string, input: Omit<NewUser, 'licensesAttested'>, by: LicenseActor): Promise<UserRow> {
  return q.transaction(async (tx) => {
    await requireTenant(tx, tenantId);
    return createUser(tx, tenantId, { ...input, licensesAttested: true }, by);
  });
}
