import { and, eq, gt } from 'drizzle-orm';
import { knownSignInSources } from '@/db/schema';
import { now } from '@/server/lib/clock';
import { keyedHash } from '@/server/lib/crypto';
import type { AuthDeps } from './deps';

/** A network stays known this long after its last completed sign-in. */
const KNOWN_FOR_MS = 90 * 24 * 3600_000;

// Keyed, so the table says which user signed in from where only to someone who also holds the auth secret.
const sourceHash = (secret: Uint8Array, ip: string) => keyedHash(secret, 'sign-in source v1', ip);

/** Whether the user completed a sign-in from this client address within the last 90 days. */
export async function isKnownSource(deps: AuthDeps, userId: string, ip: string): Promise<boolean> {
  const since = new Date(now().getTime() - KNOWN_FOR_MS);
  const [row] = await deps.db
    .select({ userId: knownSignInSources.userId })
    .from(knownSignInSources)
    .where(and(eq(knownSignInSources.userId, userId), eq(knownSignInSources.sourceHash, sourceHash(deps.secret, ip)), gt(knownSignInSources.lastSignInAt, since)))
    .limit(1);
  return Boolean(row);
}

/** Called once a sign-in is complete (password, and the code when two-factor authentication is on). */
export async function rememberSource(deps: AuthDeps, userId: string, ip: string): Promise<void> {
  const at = now();
  await deps.db
    .insert(knownSignInSources)
    .values({ userId, sourceHash: sourceHash(deps.secret, ip), lastSignInAt: at })
    .onConflictDoUpdate({ target: [knownSignInSources.userId, knownSignInSources.sourceHash], set: { lastSignInAt: at } });
}
