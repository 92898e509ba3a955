import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/**
 * One handle type for both drivers (PGlite and node-postgres). Built without the schema: nothing uses the
 * relational `db.query` API, and with a schema drizzle builds a query builder per table on every transaction.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything queries can run on: the database or an open transaction. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** LISTEN/NOTIFY: PGlite delivers in-process, PostgreSQL across processes; payloads arrive after commit. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** Runs drizzle migrations; safe when several processes start at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL's pool of this process (fr_db_pool_connections); PGlite has none. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
}
