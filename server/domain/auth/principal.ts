import type { Role } from './roles';

/** The person behind a user session, as far as authorization needs to know. */
export interface SessionUser {
  id: string;
  role: Role;
  /** Named as the prescriber on what an approval sends to the pharmacy. */
  name: string | null;
  npi: string | null;
  npiVerified: boolean;
  mfaEnabled: boolean;
  licensedStates: readonly string[];
}

/** Who is calling, resolved once per request from the bearer credential. */
export interface Principal {
  kind: 'key' | 'user';
  /** Null only for platform operators, who belong to no tenant. */
  tenantId: string | null;
  livemode: boolean;
  scopes: readonly string[];
  keyId?: string;
  userId?: string;
  user?: SessionUser;
  /** Counted separately per mode, so sandbox traffic never starves live traffic. */
  rateLimitKey: string;
}

export interface TenantPrincipal extends Principal {
  tenantId: string;
}

export const isOps = (p: Principal) => p.tenantId === null && p.scopes.includes('ops.*');

/** Who a credential is, as records of who did something name them: ops, a user, or an API key. */
export interface CredentialActor {
  kind: 'ops' | 'user' | 'key';
  id: string | null;
}

export const credentialActor = (p: Principal): CredentialActor =>
  isOps(p) ? { kind: 'ops', id: p.userId ?? p.keyId ?? null } : p.kind === 'user' ? { kind: 'user', id: p.userId ?? null } : { kind: 'key', id: p.keyId ?? null };
