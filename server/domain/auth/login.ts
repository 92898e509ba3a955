import { errors } from '@/server/lib/errors';
import type { AuthDeps } from './deps';
import { isKnownSource, rememberSource } from './known-sources';
import { burnDecoyVerification, verifyPassword } from './passwords';
import { issueSession, type SessionTokens } from './sessions';
import { alertRepeatedFailures } from './sign-in-alerts';
import { signMfaToken } from './tokens';
import { findUserByEmail, normalizeEmail, type UserRow } from './users';

export type LoginResult = SessionTokens | { mfaRequired: true; mfaToken: string };

// One message for every failure, so the answer never tells whether an account exists.
const invalidCredentials = () => errors.unauthenticated('The e-mail or password is incorrect.', 'invalid_credentials');

/**
 * Password sign-in; an account with two-factor authentication gets an MFA token instead of a session. Limits
 * are counted per e-mail as typed (normalised), so an unknown address is limited exactly like a real one.
 */
export async function loginWithPassword(deps: AuthDeps, email: string, password: string, ip = 'unknown'): Promise<LoginResult> {
  const account = normalizeEmail(email);
  const found = await findUserByEmail(deps.db, email);
  const user = found?.passwordHash && !found.deactivatedAt ? found : undefined;
  await deps.limits.login.admit(account, ip, user ? await isKnownSource(deps, user.id, ip) : false);
  if (!user) await burnDecoyVerification(password);
  if (!user?.passwordHash || !(await verifyPassword(password, user.passwordHash))) {
    if ((await deps.limits.login.failed(account)) && user) alertRepeatedFailures(deps, user);
    throw invalidCredentials();
  }
  await deps.limits.login.succeeded(account, ip);
  if (!user.mfaEnabledAt) await rememberSource(deps, user.id, ip);
  return sessionOrMfaChallenge(deps, user);
}

export async function sessionOrMfaChallenge(deps: AuthDeps, user: UserRow): Promise<LoginResult> {
  if (user.mfaEnabledAt) return { mfaRequired: true, mfaToken: await signMfaToken(deps.secret, { userId: user.id, tenantId: user.tenantId }) };
  return issueSession(deps.db, deps.secret, user);
}
