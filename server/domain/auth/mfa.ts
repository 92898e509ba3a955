import { authenticator } from 'otplib';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { users } from '@/db/schema';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import type { AuthDeps } from './deps';
import { rememberSource } from './known-sources';
import { issueSession } from './sessions';
import { verifyMfaToken } from './tokens';
import { findUserById, type UserRow } from './users';

// One step either side tolerates a phone clock a little off.
authenticator.options = { window: 1 };
const ISSUER = 'Fulfillment Rail';

/** The time step a code belongs to (RFC 6238), or null when it matches none within the window. */
function stepOf(secret: string, code: string): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const epoch = Date.now();
  const at = authenticator.clone({ epoch });
  const delta = at.checkDelta(code, secret);
  return delta === null ? null : Math.floor(epoch / 1000 / at.allOptions().step) + delta;
}

/**
 * Accepts a code once (RFC 6238 §5.2): records its time step, so the same code, or one of an earlier step,
 * is refused afterwards, also when two requests carry it at once (the update decides). `also` is written by
 * the same update, so it happens only with an accepted code.
 */
async function useTotp(deps: AuthDeps, userId: string, secret: string, code: string, invalid: (message: string) => Error, also: Partial<UserRow> = {}) {
  const step = stepOf(secret, code);
  if (step === null) throw invalid('The code is not valid. Check the time on your device and try again.');
  const fresh = or(isNull(users.mfaLastStep), lt(users.mfaLastStep, step));
  const used = await deps.db.update(users).set({ ...also, mfaLastStep: step }).where(and(eq(users.id, userId), fresh)).returning({ id: users.id });
  if (used.length === 0) throw invalid('This code has already been used. Wait for your app to show the next one.');
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
  await useTotp(deps, user.id, user.mfaSecret, code, (message) => errors.validation(message, 'code', 'invalid_mfa_code'), { mfaEnabledAt: now() });
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
  await useTotp(deps, user.id, user.mfaSecret, code, (message) => errors.unauthenticated(message, 'invalid_mfa_code'));
  if (ip) await rememberSource(deps, user.id, ip);
  return issueSession(deps.db, deps.secret, user);
}
