import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { runCli, type CliOutcome } from '@/bin/run-cli';
import { createScratchDatabase } from './harness';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const execFileAsync = promisify(execFile);

export type CliRun = CliOutcome;

export interface CliWorkspace {
  /** The CLI's environment: a private PGlite directory, or a scratch PostgreSQL database under DATABASE_URL. */
  env: NodeJS.ProcessEnv;
  dataDir: string;
  /** Runs a command in this process, as `npm run cli --` would with `env` (a spawn costs seconds of start-up). */
  cli(...args: string[]): Promise<CliRun>;
  /** Spawns the real entry, bin/cli.ts (what `npm run cli --` runs, minus npm's start-up): for the one smoke test. */
  spawnCli(...args: string[]): Promise<CliRun>;
}

/** A workspace for the CLI, made before the enclosing tests and removed after them. */
export function cliWorkspace(prefix: string, extraEnv: Record<string, string> = {}): CliWorkspace {
  let drop: (() => Promise<void>) | undefined;
  const ws: CliWorkspace = {
    env: { ...process.env },
    dataDir: '',
    cli: (...args) => runCli(args, ws.env),
    async spawnCli(...args) {
      try {
        const { stdout, stderr } = await execFileAsync(process.execPath, ['--import', 'tsx', 'bin/cli.ts', ...args], { env: ws.env, cwd: ROOT });
        return { code: 0, stdout, stderr };
      } catch (e) {
        const err = e as CliRun;
        return { code: err.code, stdout: err.stdout, stderr: err.stderr };
      }
    },
  };
  beforeAll(async () => {
    ws.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    const { DATABASE_URL: _unused, ...base } = process.env;
    ws.env = { ...base, PGLITE_DATA_DIR: ws.dataDir, LOG_LEVEL: 'silent', ...extraEnv };
    if (process.env.DATABASE_URL) {
      const scratch = await createScratchDatabase(process.env.DATABASE_URL);
      ws.env.DATABASE_URL = scratch.url;
      drop = scratch.drop;
    }
  });
  afterAll(async () => {
    await drop?.();
    fs.rmSync(ws.dataDir, { recursive: true, force: true });
  });
  return ws;
}
