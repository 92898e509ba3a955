import { hasScope, SECRET_KEY_SCOPES } from '@/server/domain/developer/scopes';
import { canGrant, TENANT_ROLES, type Role, type TenantRole } from './roles';

export interface Grants {
  /** Roles this person may give when inviting or changing a member. */
  roles: TenantRole[];
  /** Scopes this person may put on a restricted key. */
  keyScopes: string[];
  /** A secret key holds every key scope, so only someone holding all of them may create one. */
  secretKeys: boolean;
}

/** What a signed-in person may hand on, by the same rules the create and update procedures enforce. */
export function grantsOf(role: Role, scopes: readonly string[]): Grants {
  const keyScopes = SECRET_KEY_SCOPES.filter((s) => hasScope(scopes, s));
  return { roles: TENANT_ROLES.filter((r) => canGrant(role, r)), keyScopes, secretKeys: keyScopes.length === SECRET_KEY_SCOPES.length };
}
