import { and, eq, isNull } from 'drizzle-orm';
import { refreshTokens } from '@/db/schema';
import type { Db, Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { keyedHash, randomBase62, sha256Hex } from '@/server/lib/crypto';
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

/** How long a just-rotated refresh token is still answered (two tabs refreshing with the same token at once). */
export const REFRESH_REUSE_GRACE_MS = 10_000;

/**
 * The token a rotation hands out, derived from the one presented under the server's secret: a replay within
 * the grace window gets the very same token back, and no token is ever stored in a form that could be used.
 */
function successorOf(secret: Uint8Array, token: string): string {
  return `rt_${keyedHash(secret, 'refresh successor v1', token).slice(0, 40)}`;
}

async function storeRefresh(db: Queryable, userId: string, familyId: string, token: string, issuedAt: Date): Promise<void> {
  await db.insert(refreshTokens).values({
    id: newId('refreshToken'),
    userId,
    familyId,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(issuedAt.getTime() + REFRESH_TTL_MS),
  });
}

async function sessionTokens(secret: Uint8Array, user: UserRow, refreshToken: string, issuedAt?: Date): Promise<SessionTokens> {
  const accessToken = await signAccessToken(secret, { userId: user.id, tenantId: user.tenantId }, issuedAt);
  return { accessToken, refreshToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_S };
}

/** A new session: a short-lived access JWT and the first refresh token of a new family. */
export async function issueSession(db: Db, secret: Uint8Array, user: UserRow): Promise<SessionTokens> {
  const refreshToken = `rt_${randomBase62(40)}`;
  await storeRefresh(db, user.id, newId('refreshFamily'), refreshToken, now());
  return sessionTokens(secret, user, refreshToken);
}

const invalidRefresh = () => errors.unauthenticated('The refresh token is invalid, expired or already used. Sign in again.', 'invalid_refresh_token');

const findRefresh = async (db: Db, token: string) =>
  (await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256Hex(token))).limit(1))[0];

/**
 * Rotation with reuse detection: each refresh token is exchanged once; presenting a used one means it was
 * stolen or replayed, so the whole family (every session descended from that sign-in) is revoked. The one
 * exception is a replay within REFRESH_REUSE_GRACE_MS of the rotation while its successor is still unused:
 * two tabs refreshing at once send the same token, and both get the same new pair.
 */
export async function rotateRefreshToken(
  db: Db,
  secret: Uint8Array,
  token: string,
  loadUser: (id: string) => Promise<UserRow | undefined>,
): Promise<SessionTokens> {
  let row = await findRefresh(db, token);
  if (!row) throw invalidRefresh();
  const user = await loadUser(row.userId);
  if (!row.usedAt && !row.revokedAt) {
    if (row.expiresAt <= now() || !user || user.deactivatedAt) throw invalidRefresh();
    const { id, familyId } = row;
    const rotatedAt = now();
    const successor = successorOf(secret, token);
    // The claim and the successor commit together, so a concurrent loser that sees the claim also sees the successor.
    const won = await db.transaction(async (tx) => {
      const claimed = await tx
        .update(refreshTokens)
        .set({ usedAt: rotatedAt })
        .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
        .returning({ id: refreshTokens.id });
      if (claimed.length > 0) await storeRefresh(tx, user.id, familyId, successor, rotatedAt);
      return claimed.length > 0;
    });
    if (won) return sessionTokens(secret, user, successor, rotatedAt);
    // Lost the race to a concurrent refresh with the same token, whose rotation has committed.
    row = (await findRefresh(db, token)) ?? row;
  }
  if (row.usedAt && !row.revokedAt && user && !user.deactivatedAt && now().getTime() - row.usedAt.getTime() <= REFRESH_REUSE_GRACE_MS) {
    const successor = successorOf(secret, token);
    const next = await findRefresh(db, successor);
    // Same access token too: signed again with the rotation's instant, it comes out identical.
    if (next && !next.usedAt && !next.revokedAt) return sessionTokens(secret, user, successor, row.usedAt);
  }
  await revokeFamily(db, row.familyId);
  throw invalidRefresh();
}

export async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db.update(refreshTokens).set({ revokedAt: now() }).where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Logout of one session: ends the family of the given refresh token if it is the user's. */
export async function endSessionFamily(db: Db, userId: string, refreshToken: string): Promise<void> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256Hex(refreshToken))).limit(1);
  if (row && row.userId === userId) await revokeFamily(db, row.familyId);
}
