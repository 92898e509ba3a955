import { errors } from '@/server/lib/errors';
import type { AuthDeps } from './deps';
import { sessionOrMfaChallenge, type LoginResult } from './login';
import { consumeOneTimeToken, createOneTimeToken } from './one-time-tokens';
import { findUserByEmail, findUserById, normalizeEmail } from './users';

const MAGIC_LINK_TTL_MS = 15 * 60_000;

/** Always answers the same way, whether or not the address has an account. */
export async function requestMagicLink(deps: AuthDeps, email: string, ip?: string) {
  await deps.limits.consume('magic', [normalizeEmail(email), ip ?? '']);
  const user = await findUserByEmail(deps.db, email);
  if (user && !user.deactivatedAt) {
    const token = await createOneTimeToken(deps.db, user.id, 'magic_link', MAGIC_LINK_TTL_MS);
    const link = `${deps.publicUrl}/login/magic?token=${token}`;
    await deps.mailer.send({
      to: user.email,
      subject: 'Your Fulfillment Rail sign-in link',
      text: `Sign in to Fulfillment Rail with this link (valid for 15 minutes, usable once):\n\n${link}\n\nIf you did not ask for it, ignore this message.`,
      link,
    });
  }
  return { sent: true as const };
}

export async function verifyMagicLink(deps: AuthDeps, token: string): Promise<LoginResult> {
  const userId = await consumeOneTimeToken(deps.db, token, 'magic_link');
  const user = await findUserById(deps.db, userId);
  if (!user || user.deactivatedAt) throw errors.unauthenticated('This link is invalid, expired or already used. Request a new one.', 'invalid_link_token');
  return sessionOrMfaChallenge(deps, user);
}
