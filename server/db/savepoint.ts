import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, Queryable, Tx } from './types';

/**
 * Runs `fn` in a savepoint when `q` is an open transaction (an Idempotency-Key request runs in one), so a
 * statement whose failure the caller maps to an answer (a unique violation) leaves the transaction usable
 * for the reads that explain it. Outside a transaction a failed statement undoes only itself already, and
 * no round trip is added.
 */
export function withSavepoint<T>(q: Queryable, fn: (q: Queryable) => Promise<T>): Promise<T> {
  return q instanceof PgTransaction ? q.transaction((tx) => fn(tx)) : fn(q);
}

/**
 * Runs `fn` in `q`'s open transaction when it is one, else in a new transaction: for a unit of work whose
 * failure is the whole request's (an Idempotency-Key request's transaction rolls back on any error), where a
 * savepoint would only add two round trips (docs/decisions/performance.md, "Public runtime: statements per request").
 */
export function joinTransaction<T>(q: Db | Tx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return q instanceof PgTransaction ? fn(q as Tx) : q.transaction(fn);
}
