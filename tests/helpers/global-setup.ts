import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '@/server/db/client';

/**
 * Runs once per `vitest run`, before any test file: migrates one database of each kind, and every test
 * database of the run starts from it (issue 32: initdb and the migrations took 7.6–12.7 CPU-s per database).
 *
 * - PGlite: a migrated in-memory database is dumped to a tarball; the harness loads it into each new
 *   in-memory database, about 0.7 CPU-s instead of 6, and each worker lends its databases to one app after
 *   another, emptied in between (tests/helpers/pglite-pool.ts).
 * - PostgreSQL (DATABASE_URL): a migrated database `fr_test_<run>_template`; each test file's scratch database
 *   is `CREATE DATABASE … TEMPLATE` of it. Every database of this run carries the run's id, so whatever a
 *   worker that died left behind is dropped when the run ends.
 *
 * Nothing is kept between runs: a fresh clone builds both again (a few seconds).
 */
export default async function setup() {
  const run = randomBytes(3).toString('hex');
  process.env.FR_TEST_RUN = run;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fr-test-${run}-`));
  const adminUrl = process.env.DATABASE_URL;
  // The PostgreSQL run starts some apps on PGlite too (`embedded: true`), so both kinds always get a template.
  await Promise.all([makePgliteTemplate(dir), adminUrl ? makePostgresTemplate(adminUrl, run) : undefined]);

  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (adminUrl) await dropRunDatabases(adminUrl, run);
  };
}

async function makePgliteTemplate(dir: string) {
  const database = await openDatabase({ pgliteDataDir: 'memory://' });
  try {
    await database.migrate();
    const client = (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
    const file = path.join(dir, 'pglite-template.tar');
    fs.writeFileSync(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
    process.env.FR_TEST_PGLITE_TEMPLATE = file;
  } finally {
    await database.close();
  }
}

async function makePostgresTemplate(adminUrl: string, run: string) {
  const name = `fr_test_${run}_template`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  try {
    await database.migrate();
  } finally {
    // CREATE DATABASE … TEMPLATE refuses while anyone is connected to the template.
    await database.close();
  }
  process.env.FR_TEST_PG_TEMPLATE = name;
}

async function dropRunDatabases(adminUrl: string, run: string) {
  await withAdmin(adminUrl, async (admin) => {
    const left = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`fr_test_${run}_%`]);
    for (const { datname } of left.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}

async function withAdmin<T>(adminUrl: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}
