import { eq } from 'drizzle-orm';
import { apiKeys } from '@/db/schema';
import type { Db } from '@/server/db/types';
import type { Principal } from '@/server/domain/auth/principal';
import { now } from '@/server/lib/clock';
import { sha256Hex } from '@/server/lib/crypto';
import { errors } from '@/server/lib/errors';
import { keyCache } from './key-cache';

const TOUCH_INTERVAL_MS = 60_000;

/** Resolves a plaintext API key to its principal: one indexed lookup by hash, then a short-lived cache. */
export async function authenticateApiKey(db: Db, token: string): Promise<Principal> {
  const hash = sha256Hex(token);
  const at = now();
  const cached = keyCache.get(hash, at.getTime());
  if (cached) {
    if (cached.expiresAt && cached.expiresAt <= at) throw errors.unauthenticated('This API key has expired.', 'api_key_expired');
    return cached.principal;
  }
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.hash, hash)).limit(1);
  if (!row) throw errors.unauthenticated();
  if (row.revokedAt) throw errors.unauthenticated('This API key has been revoked.', 'api_key_revoked');
  if (row.expiresAt && row.expiresAt <= at) throw errors.unauthenticated('This API key has expired.', 'api_key_expired');

  if (!row.lastUsedAt || at.getTime() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, row.id));
  }
  const principal: Principal = {
    kind: 'key',
    tenantId: row.tenantId,
    livemode: row.livemode,
    scopes: row.scopes,
    keyId: row.id,
    rateLimitKey: `${row.id}:${row.livemode ? 'live' : 'sandbox'}`,
  };
  keyCache.set(hash, { principal, keyId: row.id, expiresAt: row.expiresAt }, at.getTime());
  return principal;
}
