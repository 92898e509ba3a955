import { and, eq, isNull } from 'drizzle-orm';
import { refreshTokens } from '@/db/schema';
import type { Db } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { randomBase62, sha256Hex } from '@/server/lib/crypto';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { ACCESS_TOKEN_TTL_S, signAccessToken } from './tokens';
import type { UserRow } from './users';

const REFRESH_TTL_MS = 30 * 24 * 3600_000;

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

async function mintRefresh(db: Db, userId: string, familyId: string): Promise<string> {
  const token = `rt_${randomBase62(40)}`;
  await db.insert(refreshTokens).values({
    id: newId('refreshToken'),
    userId,
    familyId,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(now().getTime() + REFRESH_TTL_MS),
  });
  return token;
}

/** A new session: a short-lived access JWT and the first refresh token of a new family. */
export async function issueSession(db: Db, secret: Uint8Array, user: UserRow): Promise<SessionTokens> {
  const refreshToken = await mintRefresh(db, user.id, newId('refreshFamily'));
  const accessToken = await signAccessToken(secret, { userId: user.id, tenantId: user.tenantId });
  return { accessToken, refreshToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_S };
}

const invalidRefresh = () => errors.unauthenticated('The refresh token is invalid, expired or already used. Sign in again.', 'invalid_refresh_token');

/**
 * Rotation with reuse detection: each refresh token works once; presenting a used one means it was
 * stolen or replayed, so the whole family (every session descended from that sign-in) is revoked.
 */
export async function rotateRefreshToken(
  db: Db,
  secret: Uint8Array,
  token: string,
  loadUser: (id: string) => Promise<UserRow | undefined>,
): Promise<SessionTokens> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256Hex(token))).limit(1);
  if (!row) throw invalidRefresh();
  if (row.usedAt || row.revokedAt) {
    await revokeFamily(db, row.familyId);
    throw invalidRefresh();
  }
  if (row.expiresAt <= now()) throw invalidRefresh();
  // Only one concurrent refresh may win the rotation; the loser is treated as reuse.
  const claimed = await db
    .update(refreshTokens)
    .set({ usedAt: now() })
    .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt)))
    .returning({ id: refreshTokens.id });
  if (claimed.length === 0) {
    await revokeFamily(db, row.familyId);
    throw invalidRefresh();
  }
  const user = await loadUser(row.userId);
  if (!user || user.deactivatedAt) throw invalidRefresh();
  const refreshToken = await mintRefresh(db, user.id, row.familyId);
  const accessToken = await signAccessToken(secret, { userId: user.id, tenantId: user.tenantId });
  return { accessToken, refreshToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_S };
}

export async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db.update(refreshTokens).set({ revokedAt: now() }).where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Logout of one session: ends the family of the given refresh token if it is the user's. */
export async function endSessionFamily(db: Db, userId: string, refreshToken: string): Promise<void> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256Hex(refreshToken))).limit(1);
  if (row && row.userId === userId) await revokeFamily(db, row.familyId);
}
