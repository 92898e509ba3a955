import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { createScratchDatabase } from './harness';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const execFileAsync = promisify(execFile);

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliWorkspace {
  /** The CLI's environment: a private PGlite directory, or a scratch PostgreSQL database under DATABASE_URL. */
  env: NodeJS.ProcessEnv;
  dataDir: string;
  /** Spawns the real CLI (what `npm run cli --` runs, minus npm's start-up). */
  cli(...args: string[]): Promise<CliRun>;
}

/** A workspace for the real CLI, made before the enclosing tests and removed after them. */
export function cliWorkspace(prefix: string, extraEnv: Record<string, string> = {}): CliWorkspace {
  let drop: (() => Promise<void>) | undefined;
  const ws: CliWorkspace = {
    env: { ...process.env },
    dataDir: '',
    async cli(...args) {
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
