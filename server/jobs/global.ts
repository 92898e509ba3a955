import type { Database } from '@/server/db/types';
import type { Config } from '@/server/lib/config';
import { createWorker, type Worker } from './worker';

// Next.js may load a second copy of this module in the same process; the worker must still start once.
const holder = globalThis as unknown as { __frWorker?: Worker };

/** Starts this process's worker unless one is already running (RUN_WORKER in the web process). */
export async function startProcessWorker(database: Database, config: Config): Promise<Worker> {
  if (!holder.__frWorker) {
    holder.__frWorker = createWorker({ database, config });
    await holder.__frWorker.start();
  }
  return holder.__frWorker;
}

export async function stopProcessWorker(opts: { graceMs?: number } = {}): Promise<void> {
  const worker = holder.__frWorker;
  holder.__frWorker = undefined;
  await worker?.stop(opts);
}
