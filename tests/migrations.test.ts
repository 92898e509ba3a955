import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '@/server/db/client';

describe('migrations', () => {
  it.skipIf(!process.env.DATABASE_URL)('apply once when several processes start at the same time (PostgreSQL)', async () => {
    const admin = process.env.DATABASE_URL!;
    const name = `fr_mig_${randomBytes(4).toString('hex')}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    try {
      const dbs = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ databaseUrl: url.toString() })));
      await Promise.all(dbs.map((d) => d.migrate()));
      const probe = new pg.Client({ connectionString: url.toString() });
      await probe.connect();
      const applied = await probe.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      await probe.end();
      const journal = (await import('@/db/migrations/meta/_journal.json')).default as { entries: unknown[] };
      expect(applied.rows[0].n).toBe(journal.entries.length);
      await Promise.all(dbs.map((d) => d.close()));
    } finally {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    }
  });

  it('apply on an empty embedded database and again as a no-op', async () => {
    const db = await openDatabase({ pgliteDataDir: 'memory://' });
    await db.migrate();
    await db.migrate();
    await db.close();
  });
});
