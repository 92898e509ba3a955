import { eq } from 'drizzle-orm';
import { users } from '@/db/schema';
import { errors } from '@/server/lib/errors';
import type { AuthDeps } from './deps';
import { consumeOneTimeToken, createOneTimeToken } from './one-time-tokens';
import type { LicenseActor } from './licenses';
import { hashPassword } from './passwords';
import { canGrant, type Role } from './roles';
import { issueSession } from './sessions';
import { createUser, findUserById, toUserDto, type NewUser } from './users';

const INVITE_TTL_MS = 7 * 24 * 3600_000;

/** An owner or admin invites a person; the invitee chooses a password through a one-time link. */
export async function inviteUser(deps: AuthDeps, tenantId: string, granter: Role, input: Omit<NewUser, 'password' | 'npiVerified' | 'licensesAttested'>, by: LicenseActor) {
  if (!canGrant(granter, input.role)) throw errors.forbidden(`A ${granter} cannot grant the role '${input.role}'.`, 'role_not_grantable');
  const user = await deps.db.transaction(async (tx) => createUser(tx, tenantId, input, by));
  const token = await createOneTimeToken(deps.db, user.id, 'invite', INVITE_TTL_MS);
  const link = `${deps.publicUrl}/invite?token=${token}`;
  await deps.mailer.send({
    to: user.email,
    subject: 'You are invited to Fulfillment Rail',
    text: `You have been invited to a clinic on Fulfillment Rail as ${input.role}.\nChoose your password here (valid for 7 days):\n\n${link}\n`,
    link,
  });
  return toUserDto(user);
}

export async function acceptInvite(deps: AuthDeps, token: string, password: string) {
  const userId = await consumeOneTimeToken(deps.db, token, 'invite');
  const user = await findUserById(deps.db, userId);
  if (!user || user.deactivatedAt) throw errors.unauthenticated('This link is invalid, expired or already used.', 'invalid_link_token');
  const [updated] = await deps.db.update(users).set({ passwordHash: await hashPassword(password) }).where(eq(users.id, user.id)).returning();
  return issueSession(deps.db, deps.secret, updated);
}
