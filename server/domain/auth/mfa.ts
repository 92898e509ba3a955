import { authenticator } from 'otplib';
import { eq } from 'drizzle-orm';
import { users } from '@/db/schema';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import type { AuthDeps } from './deps';
import { issueSession } from './sessions';
import { verifyMfaToken } from './tokens';
import { findUserById, type UserRow } from './users';

// One step either side tolerates a phone clock a little off.
authenticator.options = { window: 1 };
const ISSUER = 'Fulfillment Rail';

export function isValidTotp(secret: string, code: string): boolean {
  return /^\d{6}$/.test(code) && authenticator.verify({ token: code, secret });
}

/** Starts enrollment: a new secret, not yet in force until the first code confirms it. */
export async function enrollMfa(deps: AuthDeps, user: UserRow) {
  if (user.mfaEnabledAt) throw errors.conflict('Two-factor authentication is already enabled for this account.', 'mfa_already_enabled');
  const secret = authenticator.generateSecret(20);
  await deps.db.update(users).set({ mfaSecret: secret }).where(eq(users.id, user.id));
  return { secret, otpauthUri: authenticator.keyuri(user.email, ISSUER, secret) };
}

export async function confirmMfa(deps: AuthDeps, user: UserRow, code: string, ip?: string) {
  await deps.limits.consume('mfa', [user.id, ip ?? '']);
  if (user.mfaEnabledAt) throw errors.conflict('Two-factor authentication is already enabled for this account.', 'mfa_already_enabled');
  if (!user.mfaSecret) throw errors.conflict('Start enrollment with POST /v1/auth/mfa/enroll first.', 'mfa_not_enrolled');
  if (!isValidTotp(user.mfaSecret, code)) throw errors.validation('The code is not valid. Check the time on your device and try again.', 'code', 'invalid_mfa_code');
  await deps.db.update(users).set({ mfaEnabledAt: now() }).where(eq(users.id, user.id));
  return { mfaEnabled: true as const };
}

/** Second step of a sign-in for an account with two-factor authentication. */
export async function completeMfaLogin(deps: AuthDeps, mfaToken: string, code: string, ip?: string) {
  const claims = await verifyMfaToken(deps.secret, mfaToken);
  await deps.limits.consume('mfa', [claims.userId, ip ?? '']);
  const user = await findUserById(deps.db, claims.userId);
  if (!user || user.deactivatedAt || !user.mfaSecret || !user.mfaEnabledAt) {
    throw errors.unauthenticated('The MFA token is invalid or expired. Sign in again.', 'invalid_mfa_token');
  }
  if (!isValidTotp(user.mfaSecret, code)) throw errors.unauthenticated('The code is not valid.', 'invalid_mfa_code');
  return issueSession(deps.db, deps.secret, user);
}
