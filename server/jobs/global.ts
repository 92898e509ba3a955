import type { Database } from '@/server/db/types';
import type { Config } from '@/server/lib/config';
import { processSlot } from '@/server/lib/process-container';
import { createWorker, type Worker } from './worker';

// In the process container: Next.js may load a second copy of this module in the same process; the worker
// must still start once.
const holder = () => processSlot<Worker>('worker');

/** Starts this process's worker unless one is already running (RUN_WORKER in the web process). */
export async function startProcessWorker(database: Database, config: Config): Promise<Worker> {
  const held = holder();
  if (!held.current) {
    held.current = createWorker({ database, config });
    await held.current.start();
  }
  return held.current;
}

export async function stopProcessWorker(opts: { graceMs?: number } = {}): Promise<void> {
  const held = holder();
  const worker = held.current;
  held.current = undefined;
  await worker?.stop(opts);
}
