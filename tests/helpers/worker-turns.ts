import type { Worker } from '@/server/jobs/worker';
import { waitFor } from './webhooks';

/**
 * Resolves once the job worker's loop has begun `turns` more turns than when it was called. Each turn
 * claims every job that is due before the next one begins, so after n + 1 new turns at least n claims
 * ran entirely after the call: the positive marker for "the worker had its chances, and X still did not
 * happen", counted in the worker's own turns rather than in milliseconds that a slow machine stretches.
 *
 * Turns are told apart by the loop's heartbeat (`health().beatAt`, the clock at the start of a turn), so
 * this needs the real clock, not a frozen `setClock`; turns that begin between two looks count as one, which
 * only makes the wait longer.
 */
export async function workerTurns(worker: Pick<Worker, 'health'>, turns: number, { what = `${turns} worker turns`, timeoutMs = 30_000 } = {}) {
  if (turns <= 0) return;
  let last = worker.health().beatAt;
  let seen = 0;
  await waitFor(
    () => {
      const { running, beatAt } = worker.health();
      if (!running || beatAt === null) throw new Error(`the worker stopped while waiting for ${what}`);
      if (beatAt !== last) {
        last = beatAt;
        seen++;
      }
      return seen >= turns;
    },
    { what, timeoutMs },
  );
}
