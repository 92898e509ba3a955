import path from 'node:path';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import * as schema from '@/db/schema';
import type { Database, Db } from './types';

const MIGRATIONS = path.resolve(process.cwd(), 'db/migrations');
// Any constant works; it only has to be the same in every process of this service.
const MIGRATION_LOCK = 7_240_531;

export interface DatabaseOptions {
  databaseUrl?: string;
  pgliteDataDir?: string;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.pgliteDataDir ?? '.data/pglite');
}

async function openPglite(dataDir: string): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (!dataDir.startsWith('memory://')) fs.mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir);
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migrate(db as never, { migrationsFolder: MIGRATIONS }),
    close: () => client.close(),
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  const db = drizzle(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async migrate() {
      // One connection holds an advisory lock for the whole run, so concurrent starts migrate one after another.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Liveness probe used by health checks. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
