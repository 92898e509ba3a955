import { defineConfig } from 'vitest/config';
import path from 'node:path';

/*
 * Which files a run takes follows the database they need (docs/decisions/tests-and-ci.md, "Which database a
 * test file runs on"):
 *   tests/*.test.ts           data behaviour: both runs, PGlite (`npm test`) and PostgreSQL (DATABASE_URL set);
 *   tests/no-database/**             database-independent: once, in the PGlite run;
 *   tests/embedded/**         the embedded database's own behaviour: the PGlite run only;
 *   tests/postgres/**         PostgreSQL's own behaviour (locking, processes on one server): its run only.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);

export default defineConfig({
  // The examples import the SDK by its package name; in the project that is its source.
  resolve: { alias: { '@fulfillment-rail/sdk': path.resolve(import.meta.dirname, 'sdk/src/index.ts'), '@': path.resolve(import.meta.dirname) } },
  test: {
    include: onPostgres ? ['tests/*.test.ts', 'tests/postgres/**/*.test.ts'] : ['tests/*.test.ts', 'tests/no-database/**/*.test.ts', 'tests/embedded/**/*.test.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    setupFiles: ['tests/helpers/per-file.ts'],
    pool: 'forks',
    // Each worker imports the app once and runs file after file in it (a fresh import per file cost 2 CPU-s
    // a file); what a file leaves in process-wide state is reset by tests/helpers/per-file.ts.
    isolate: false,
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
