import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

// Creates the cluster and closes it; nothing else. Run as a module from the project's root, where node_modules is.
const CREATE = `
import { PGlite } from '@electric-sql/pglite';
const client = new PGlite(process.env.FR_PGLITE_NEW_DIR);
await client.waitReady;
await client.close();
`;

/**
 * A new embedded database is created in a short-lived child process, and the server then opens it as an existing
 * one (docs/decisions/performance.md, "PGlite's buffer cache"). PGlite creates a cluster by running initdb in a
 * second WebAssembly instance inside the process; what that leaves in the process's native heap (about 100 MB)
 * is never returned to the system, so a server that created its database held that much more for its whole life
 * than one restarted on it. `PG_VERSION` is the file initdb writes: a directory without it holds no cluster yet.
 */
export async function createPgliteClusterIfNew(dataDir: string): Promise<void> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  await run(process.execPath, ['--input-type=module', '-e', CREATE], {
    cwd: process.cwd(),
    env: { ...process.env, FR_PGLITE_NEW_DIR: dataDir, NODE_OPTIONS: '' },
    maxBuffer: 1024 * 1024,
  });
}
