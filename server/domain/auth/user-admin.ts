import { and, eq, isNull } from 'drizzle-orm';
import { refreshTokens, users } from '@/db/schema';
import type { Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import type { TenantPrincipal } from './principal';
import { canGrant, outranks, type Role } from './roles';
import { deactivateUser, tenantUsers, type UserRow } from './users';

/** The role a principal acts with when managing people; only owner and admin sessions manage people. */
export function granterRole(p: TenantPrincipal): Role {
  if (!p.user) throw errors.forbidden('Managing people needs an owner or admin session.', 'user_session_required');
  return p.user.role;
}

/** An admin may act only on people at or below their rank, and grant only roles at or below it. */
export async function administerUser(q: Queryable, p: TenantPrincipal, targetId: string, newRole?: Role): Promise<void> {
  const role = granterRole(p);
  const target = await tenantUsers(q, p.tenantId).require(users, targetId, 'user');
  if (!outranks(role, target.role)) throw errors.forbidden(`A ${role} cannot change a ${target.role}.`, 'role_not_grantable');
  if (newRole && !canGrant(role, newRole)) throw errors.forbidden(`A ${role} cannot grant the role '${newRole}'.`, 'role_not_grantable');
}

/** Every refresh token is revoked and every access token issued so far is refused from now on. */
export async function endAllSessions(q: Queryable, userId: string): Promise<void> {
  await q.update(refreshTokens).set({ revokedAt: now() }).where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  await q.update(users).set({ sessionsValidAfter: now() }).where(eq(users.id, userId));
}

/** Deactivation ends every session in the same transaction, so no token outlives the account. */
export async function deactivateTenantUser(q: Queryable, p: TenantPrincipal, targetId: string): Promise<UserRow> {
  if (targetId === p.userId) throw errors.conflict('You cannot deactivate your own account.', 'cannot_deactivate_self');
  await administerUser(q, p, targetId);
  return q.transaction(async (tx) => {
    const row = await deactivateUser(tx, p.tenantId, targetId);
    await endAllSessions(tx, targetId);
    return row;
  });
}
