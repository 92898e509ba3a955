import type { Db } from '@/server/db/types';
import { errors } from '@/server/lib/errors';
import type { Principal } from './principal';
import { roleScopes } from './roles';
import { verifyAccessToken } from './tokens';
import { findSessionUser } from './session-users';
import type { UserRow } from './users';

export function principalForUser(user: UserRow, livemode: boolean): Principal {
  return {
    kind: 'user',
    tenantId: user.tenantId,
    livemode,
    scopes: roleScopes(user.role),
    userId: user.id,
    user: {
      id: user.id,
      role: user.role,
      name: user.name,
      npi: user.npi,
      npiVerified: Boolean(user.npiVerifiedAt),
      mfaEnabled: Boolean(user.mfaEnabledAt),
      licensedStates: user.licensedStates,
    },
    rateLimitKey: `${user.id}:${livemode ? 'live' : 'sandbox'}`,
  };
}

/**
 * A session JWT is honoured only while its user is active, still in the tenant it was issued for,
 * and has not ended their sessions since it was issued; the user is re-read on every request.
 */
export async function authenticateSession(db: Db, secret: Uint8Array, token: string, modeHeader: string | undefined): Promise<Principal> {
  const claims = await verifyAccessToken(secret, token);
  const user = await findSessionUser(db, claims.userId);
  const invalid = () => errors.unauthenticated('The session is no longer valid. Sign in again.', 'invalid_session');
  if (!user || user.deactivatedAt || user.tenantId !== claims.tenantId) throw invalid();
  if (user.sessionsValidAfter && !(Number(claims.issuedAtMs) > user.sessionsValidAfter.getTime())) throw invalid();
  const mode = (modeHeader ?? 'sandbox').toLowerCase();
  if (mode !== 'sandbox' && mode !== 'live') {
    throw errors.validation("The X-Mode header must be 'sandbox' or 'live'.", 'X-Mode', 'invalid_mode');
  }
  return principalForUser(user, mode === 'live');
}
