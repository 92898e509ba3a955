import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { idempotencyKeys } from '@/db/schema';
import { placeholders, prepared } from '@/server/db/prepared';
import type { Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { sha256Hex } from '@/server/lib/crypto';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { namedStatement } from '@/server/db/named-sql';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claim outside a transaction stays its owner's. Longer than any such request can run (a
 * pharmacy or webhook send times out by 15 s by default), so only a crashed owner's claim lapses.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface IdempotencyRequest {
  scope: string;
  livemode: boolean;
  key: string;
  fingerprint: string;
  /** The API key or user making the request. */
  credential: string;
}

export type Claim =
  /** `resumedSince`: this request took over the claim of one that died; its run may have committed. */
  | { kind: 'claimed'; id: string; resumedSince: Date | null }
  | { kind: 'replay'; status: number; body: unknown; resourceId: string | null };

export interface StoredResponse {
  status: number;
  body: unknown;
  resourceId?: string | null;
}

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

const p = sql.placeholder;
const claimStatement = namedStatement(() => sql`
    with locked as (select pg_try_advisory_xact_lock(hashtextextended(${p('c.lock')}, 0)) as got), claimed as (
      insert into idempotency_keys (id, scope, livemode, key, request_hash, credential, state, created_at)
      select ${p('c.id')}::text, ${p('c.scope')}::text, ${p('c.livemode')}::boolean, ${p('c.key')}::text, ${p('c.fingerprint')}::text, ${p('c.credential')}::text, 'in_flight', ${p('c.at')}::timestamptz
      from locked where got
      on conflict do nothing returning 1
    )
    select (select got from locked) as got, (select count(*) from claimed)::int as claimed
  `);

const inUse = () => errors.conflict('A request with this Idempotency-Key is still being processed. Retry shortly.', 'idempotency_key_in_use');

/**
 * For a claim inside the transaction that also writes the result: holds the key for the rest of that
 * transaction, or refuses at once (a twin running in another transaction cannot see our uncommitted claim,
 * and would otherwise wait on its unique index entry), and claims it in the same statement when no record
 * exists, the usual case (one round trip instead of two on every mutation sent with a key). A record that
 * exists goes through `claimIdempotencyKey`: replay, reuse, or a claim left by a dead request.
 */
export async function lockAndClaimIdempotencyKey(tx: Queryable, r: IdempotencyRequest): Promise<Claim> {
  const name = `${r.scope}:${r.livemode}:${r.key}`;
  const id = newId('request');
  const res = await claimStatement.execute<{ got: boolean; claimed: number }>(tx, 'claim', {
    c: { lock: name, id, scope: r.scope, livemode: r.livemode, key: r.key, fingerprint: r.fingerprint, credential: r.credential, at: now() },
  });
  const [row] = res.rows;
  if (!row?.got) throw inUse();
  if (Number(row.claimed) > 0) return { kind: 'claimed', id, resumedSince: null };
  return claimIdempotencyKey(tx, r, false);
}

/**
 * Claims a key for one request (DESIGN decision 3). A finished twin of the same credential is replayed;
 * another credential, or a different request, under the same key is `idempotency_key_reused`; a running
 * twin is `idempotency_key_in_use` until its lease lapses, after which this request takes the claim over;
 * a record older than 24 hours is forgotten. `lease` is null inside the transaction that also writes the
 * result: such a claim is never seen unfinished by anyone else.
 */
export async function claimIdempotencyKey(q: Queryable, r: IdempotencyRequest, lease: boolean): Promise<Claim> {
  const where = and(eq(idempotencyKeys.scope, r.scope), eq(idempotencyKeys.livemode, r.livemode), eq(idempotencyKeys.key, r.key));
  for (let attempt = 0; attempt < 3; attempt++) {
    const at = now();
    const leaseUntil = lease ? new Date(at.getTime() + IDEMPOTENCY_LEASE_MS) : null;
    const id = newId('request');
    const inserted = await q
      .insert(idempotencyKeys)
      .values({ id, scope: r.scope, livemode: r.livemode, key: r.key, requestHash: r.fingerprint, credential: r.credential, state: 'in_flight', leaseUntil, createdAt: at })
      .onConflictDoNothing()
      .returning({ id: idempotencyKeys.id });
    if (inserted.length) return { kind: 'claimed', id, resumedSince: null };

    const [existing] = await q.select().from(idempotencyKeys).where(where).limit(1);
    if (!existing) continue;
    if (at.getTime() - existing.createdAt.getTime() >= IDEMPOTENCY_TTL_MS) {
      await q.delete(idempotencyKeys).where(and(where, eq(idempotencyKeys.id, existing.id)));
      continue;
    }
    if (existing.credential !== r.credential) {
      throw errors.conflict('This Idempotency-Key was already used by another credential. Use a new key for a new request.', 'idempotency_key_reused');
    }
    if (existing.requestHash !== r.fingerprint) {
      throw errors.conflict('This Idempotency-Key was already used with a different request. Use a new key for a new request.', 'idempotency_key_reused');
    }
    if (existing.state === 'done') {
      return { kind: 'replay', status: existing.responseStatus ?? 200, body: existing.responseBody, resourceId: existing.resourceId };
    }
    const lapse = existing.leaseUntil ?? new Date(existing.createdAt.getTime() + IDEMPOTENCY_LEASE_MS);
    if (lapse.getTime() > at.getTime()) throw inUse();
    // Its owner died: the request runs again under the same record, which only one taker can win.
    const taken = await q
      .update(idempotencyKeys)
      .set({ leaseUntil, createdAt: at })
      .where(and(eq(idempotencyKeys.id, existing.id), eq(idempotencyKeys.state, 'in_flight'), eq(idempotencyKeys.createdAt, existing.createdAt)))
      .returning({ id: idempotencyKeys.id });
    if (taken.length) return { kind: 'claimed', id: existing.id, resumedSince: existing.createdAt };
  }
  throw inUse();
}

// Rendered once (server/db/prepared.ts): every keyed mutation stores its response with it.
const completeStatement = prepared((q: Queryable) =>
  q
    .update(idempotencyKeys)
    .set({ state: 'done', leaseUntil: null, ...placeholders(['responseStatus', 'responseBody', 'resourceId']) })
    .where(eq(idempotencyKeys.id, sql.placeholder('id'))),
);

export async function completeIdempotencyKey(q: Queryable, id: string, res: StoredResponse): Promise<void> {
  await completeStatement.execute(q, { id, responseStatus: res.status, responseBody: res.body ?? null, resourceId: res.resourceId ?? null });
}

/** Forgets a claim so that a retry runs afresh (used when the request failed before any effect). */
export async function releaseIdempotencyKey(q: Queryable, id: string): Promise<void> {
  await q.delete(idempotencyKeys).where(eq(idempotencyKeys.id, id));
}

const PURGE_BATCH = 5_000;

/** Forgets records past the 24 hours in which they can be replayed, in batches so no long lock (maintenance). */
export async function purgeIdempotencyKeys(q: Queryable): Promise<void> {
  const cutoff = new Date(now().getTime() - IDEMPOTENCY_TTL_MS);
  for (;;) {
    const old = q.select({ id: idempotencyKeys.id }).from(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff)).limit(PURGE_BATCH);
    const gone = await q.delete(idempotencyKeys).where(inArray(idempotencyKeys.id, old)).returning({ id: idempotencyKeys.id });
    if (gone.length < PURGE_BATCH) return;
  }
}
