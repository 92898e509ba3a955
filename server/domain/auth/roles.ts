import { OPS_SCOPE, SECRET_KEY_SCOPES } from '@/server/domain/developer/scopes';

export const TENANT_ROLES = ['owner', 'admin', 'developer', 'provider'] as const;
export const ROLES = [...TENANT_ROLES, 'ops'] as const;
export type Role = (typeof ROLES)[number];
export type TenantRole = (typeof TENANT_ROLES)[number];

/** Scopes only people hold; machine keys never manage people. */
export const USERS_MANAGE = 'users.manage';

const ADMIN_SCOPES = [...SECRET_KEY_SCOPES, USERS_MANAGE];

const ROLE_SCOPES: Record<Role, readonly string[]> = {
  owner: ADMIN_SCOPES,
  // Everything of the tenant but clinical review, which only providers hold.
  admin: ADMIN_SCOPES,
  developer: ['keys.manage', 'webhooks.manage', 'events.read', 'usage.read', 'orders.read'],
  provider: ['intake.review', 'orders.read', 'orders.write', 'patients.read', 'FLOWS_ANALYTICS_VIEW'],
  ops: [OPS_SCOPE],
};

export const roleScopes = (role: Role): readonly string[] => ROLE_SCOPES[role];

/** Who may grant what: a user grants only roles at or below their own rank. */
const RANK: Record<Role, number> = { developer: 1, provider: 1, admin: 2, owner: 3, ops: 4 };
export const canGrant = (granter: Role, role: Role) => RANK[granter] >= RANK[role] && role !== 'ops';
export const outranks = (a: Role, b: Role) => RANK[a] >= RANK[b];
