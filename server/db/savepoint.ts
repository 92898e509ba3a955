import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Queryable } from './types';

/**
 * Runs `fn` in a savepoint when `q` is an open transaction (an Idempotency-Key request runs in one), so a
 * statement whose failure the caller maps to an answer (a unique violation) leaves the transaction usable
 * for the reads that explain it. Outside a transaction a failed statement undoes only itself already, and
 * no round trip is added.
 */
export function withSavepoint<T>(q: Queryable, fn: (q: Queryable) => Promise<T>): Promise<T> {
  return q instanceof PgTransaction ? q.transaction((tx) => fn(tx)) : fn(q);
}
