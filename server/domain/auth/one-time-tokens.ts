import { and, eq, gt, isNull } from 'drizzle-orm';
import { oneTimeTokens } from '@/db/schema';
import type { Db } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { randomBase62, sha256Hex } from '@/server/lib/crypto';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';

type Purpose = 'magic_link' | 'invite';

export async function createOneTimeToken(db: Db, userId: string, purpose: Purpose, ttlMs: number): Promise<string> {
  const token = randomBase62(43);
  await db.insert(oneTimeTokens).values({
    id: newId('oneTimeToken'),
    userId,
    purpose,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(now().getTime() + ttlMs),
  });
  return token;
}

/** Uses a token exactly once: the conditional update lets only one of several concurrent uses win. */
export async function consumeOneTimeToken(db: Db, token: string, purpose: Purpose): Promise<string> {
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: now() })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, sha256Hex(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now()),
      ),
    )
    .returning({ userId: oneTimeTokens.userId });
  if (!row) throw errors.unauthenticated('This link is invalid, expired or already used. Request a new one.', 'invalid_link_token');
  return row.userId;
}
