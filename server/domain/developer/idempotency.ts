import { and, eq } from 'drizzle-orm';
import { idempotencyKeys } from '@/db/schema';
import type { Db } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { sha256Hex } from '@/server/lib/crypto';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface IdempotencyScope {
  scope: string;
  livemode: boolean;
  key: string;
}

export type Claim =
  | { kind: 'claimed'; id: string }
  | { kind: 'replay'; status: number; body: unknown };

export function parseIdempotencyKey(raw: string | string[] | undefined): string | null {
  if (raw === undefined) return null;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!UUID.test(value.trim())) {
    throw errors.validation('The Idempotency-Key header must be a UUID.', 'Idempotency-Key', 'invalid_idempotency_key');
  }
  return value.trim().toLowerCase();
}

export function requestFingerprint(method: string, path: string, body: string): string {
  return sha256Hex(`${method}\n${path}\n${body}`);
}

/**
 * Claims a key for one request (DESIGN decision 3). A finished twin is replayed, a running twin or a
 * different request under the same key is a 409, and a record older than 24 hours is forgotten.
 */
export async function claimIdempotencyKey(db: Db, s: IdempotencyScope, fingerprint: string): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const at = now();
    const id = newId('request');
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ id, scope: s.scope, livemode: s.livemode, key: s.key, requestHash: fingerprint, state: 'in_flight', createdAt: at })
      .onConflictDoNothing()
      .returning({ id: idempotencyKeys.id });
    if (inserted.length) return { kind: 'claimed', id };

    const where = and(eq(idempotencyKeys.scope, s.scope), eq(idempotencyKeys.livemode, s.livemode), eq(idempotencyKeys.key, s.key));
    const [existing] = await db.select().from(idempotencyKeys).where(where).limit(1);
    if (!existing) continue;
    if (at.getTime() - existing.createdAt.getTime() >= IDEMPOTENCY_TTL_MS) {
      await db.delete(idempotencyKeys).where(and(where, eq(idempotencyKeys.id, existing.id)));
      continue;
    }
    if (existing.requestHash !== fingerprint) {
      throw errors.conflict('This Idempotency-Key was already used with a different request. Use a new key for a new request.', 'idempotency_key_reused');
    }
    if (existing.state === 'in_flight') {
      throw errors.conflict('A request with this Idempotency-Key is still being processed. Retry shortly.', 'idempotency_key_in_use');
    }
    return { kind: 'replay', status: existing.responseStatus ?? 200, body: existing.responseBody };
  }
  throw errors.conflict('A request with this Idempotency-Key is still being processed. Retry shortly.', 'idempotency_key_in_use');
}

export async function completeIdempotencyKey(db: Db, id: string, status: number, body: unknown): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: 'done', responseStatus: status, responseBody: (body ?? null) as never })
    .where(eq(idempotencyKeys.id, id));
}

/** Forgets a claim so that a retry runs afresh (used when the request failed before any effect). */
export async function releaseIdempotencyKey(db: Db, id: string): Promise<void> {
  await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, id));
}
