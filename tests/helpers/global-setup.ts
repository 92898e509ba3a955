import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * On PostgreSQL each test file makes its own database and drops it when it closes. A worker that dies or
 * is torn down first would leave its database behind, one per run on the machine's server; so every
 * database of this run carries the run's id, and whatever of them is left is dropped when the run ends.
 */
export default function setup() {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return;
  const run = randomBytes(3).toString('hex');
  process.env.FR_TEST_RUN = run;
  return async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const left = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`fr_test_${run}_%`]);
      for (const { datname } of left.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };
}
