import path from 'node:path';
import type { PGlite as PgliteClient } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { logger } from '@/server/lib/logger';
import { createPgListener } from './listen';
import { createPgliteClusterIfNew } from './pglite-first-start';
import { makePrivateDir, restrictPrivateTree } from './private-dir';
import type { Database, Db } from './types';

export const MIGRATIONS = path.resolve(process.cwd(), 'db/migrations');
// Any constant works; it only has to be the same in every process of this service.
const MIGRATION_LOCK = 7_240_531;

const POOL_SIZE = 20;
// Safety nets that a healthy process never meets (docs/decisions/data.md, "Pool safety nets"). With a connection never
// handed back, or transactions each waiting for a second connection of the pool they drew from, whoever
// waits for a connection fails after this long ("timeout exceeded when trying to connect") instead of
// queuing forever.
const ACQUIRE_TIMEOUT_MS = 30_000;
// No transaction here waits on the outside world, so one left open between statements this long is a bug:
// the server ends it, and with it the row locks it held over every other request on those rows.
const IDLE_IN_TRANSACTION_MS = 60_000;
// PGlite's own default is 128 MB, every page of it touched at start: the largest part of the embedded server's
// memory. The embedded database is small, and a block evicted from this cache is read back from the operating
// system's page cache (docs/decisions/performance.md, "PGlite's buffer cache").
const PGLITE_SHARED_BUFFERS = '16MB';

export interface DatabaseOptions {
  databaseUrl?: string;
  pgliteDataDir?: string;
  /**
   * An open in-memory PGlite to use instead of a new one, and what to do with it instead of closing it. The test
   * suite lends each app one of its worker's databases, emptied since the last app, because starting one from a
   * migrated dump costs over a second of CPU (tests/helpers/pglite-pool.ts).
   */
  pgliteLease?: PgliteLease;
}

export interface PgliteLease {
  client: PgliteClient;
  release(): Promise<void>;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.pgliteDataDir ?? '.data/pglite', opts.pgliteLease);
}

async function openPglite(dataDir: string, lease?: PgliteLease): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const { privatePgliteOptions } = await import('./pglite-private-fs');
  const inMemory = dataDir.startsWith('memory://');
  if (lease && !inMemory) throw new Error('A lent PGlite stands in for an in-memory database only');
  if (!inMemory) {
    makePrivateDir(dataDir);
    await createPgliteClusterIfNew(dataDir);
    // After the child wrote its files (with PGlite's own modes): owner only, as at every start.
    restrictPrivateTree(dataDir);
  }
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
  const client = lease?.client ?? new PGlite({ ...(inMemory ? { dataDir } : privatePgliteOptions(dataDir)), startParams });
  await client.waitReady;
  const db = drizzle(client) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // Unlistening races with close at shutdown; a closed database has nothing left to unlisten.
    listen: (channel, onPayload) => client.listen(channel, onPayload).then((off) => () => off().catch(() => undefined)),
    migrate: () => migrate(db as never, { migrationsFolder: MIGRATIONS }),
    close: () => (lease ? lease.release() : client.close()),
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: ACQUIRE_TIMEOUT_MS, idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS });
  // An idle connection dropped by the server (restart, failover, DROP … FORCE) must not crash the process;
  // the pool replaces it on the next query.
  pool.on('error', (err) => logger.warn({ err }, 'idle PostgreSQL connection lost'));
  const db = drizzle(pool) as unknown as Db;
  const listener = createPgListener(pg.Client, url);
  return {
    db,
    kind: 'postgres',
    listen: listener.listen,
    async migrate() {
      // One connection holds an advisory lock for the whole run, so concurrent starts migrate one after another.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        client.release();
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: POOL_SIZE }),
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
}

/** Liveness probe used by health checks. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
