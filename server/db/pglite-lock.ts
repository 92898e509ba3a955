import fs from 'node:fs';
import path from 'node:path';
import { makePrivateDir } from './private-dir';

/** PGlite is single-process: the server marks its data directory, and other processes refuse to open it. */
export function lockFileFor(dataDir: string): string {
  return path.join(dataDir, 'fulfillment-rail.pid');
}

export function holderOf(dataDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(lockFileFor(dataDir), 'utf8').trim());
    if (!pid || pid === process.pid) return null;
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/**
 * Marks `dataDir` as this process's and returns the release. The exit hook is the safety net for a server,
 * which holds the lock for its whole life; a caller done sooner (the CLI, run in process by the tests)
 * releases it itself, which also drops the hook so repeated acquires leave no listeners behind.
 */
export function acquirePgliteLock(dataDir: string): () => void {
  const holder = holderOf(dataDir);
  if (holder) {
    throw new Error(
      `The embedded database at ${dataDir} is held by a running Fulfillment Rail process (pid ${holder}). ` +
        'Stop it first, or use the ops API (/v1/ops/...) against the running server instead.',
    );
  }
  // Opening the database next repairs the modes of the whole tree (client.ts); here only the lock file's.
  makePrivateDir(dataDir);
  fs.writeFileSync(lockFileFor(dataDir), String(process.pid));
  const release = () => {
    process.removeListener('exit', release);
    try {
      if (fs.readFileSync(lockFileFor(dataDir), 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockFileFor(dataDir));
    } catch {
      /* already gone */
    }
  };
  process.once('exit', release);
  return release;
}
