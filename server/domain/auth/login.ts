import { errors } from '@/server/lib/errors';
import type { AuthDeps } from './deps';
import { burnDecoyVerification, verifyPassword } from './passwords';
import { issueSession, type SessionTokens } from './sessions';
import { signMfaToken } from './tokens';
import { findUserByEmail, normalizeEmail, type UserRow } from './users';

export type LoginResult = SessionTokens | { mfaRequired: true; mfaToken: string };

// One message for every failure, so the answer never tells whether an account exists.
const invalidCredentials = () => errors.unauthenticated('The e-mail or password is incorrect.', 'invalid_credentials');

/** Password sign-in; an account with two-factor authentication gets an MFA token instead of a session. */
export async function loginWithPassword(deps: AuthDeps, email: string, password: string, ip?: string): Promise<LoginResult> {
  await deps.limits.consume('login', [normalizeEmail(email), ip ?? '']);
  const user = await findUserByEmail(deps.db, email);
  if (!user || !user.passwordHash || user.deactivatedAt) {
    await burnDecoyVerification(password);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(password, user.passwordHash))) throw invalidCredentials();
  return sessionOrMfaChallenge(deps, user);
}

export async function sessionOrMfaChallenge(deps: AuthDeps, user: UserRow): Promise<LoginResult> {
  if (user.mfaEnabledAt) return { mfaRequired: true, mfaToken: await signMfaToken(deps.secret, { userId: user.id, tenantId: user.tenantId }) };
  return issueSession(deps.db, deps.secret, user);
}
