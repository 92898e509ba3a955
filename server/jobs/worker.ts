import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { JOBS_CHANNEL } from '@/server/db/outbox';
import type { Database } from '@/server/db/types';
import type { Config } from '@/server/lib/config';
import { now } from '@/server/lib/clock';
import { logger } from '@/server/lib/logger';
import { errorText } from '@/server/lib/log-error';
import { runBillingTick } from '@/server/domain/billing/dunning';
import { JOB_HANDLERS } from './handlers';
import type { JobHandler } from './handlers/types';
import { runMaintenance } from './maintenance';
import { buryJob, claimJobs, finishJobs, nextDueAt, releaseLeases, rescheduleJob, type JobRow } from './queue';

const MAX_JOB_FAILURES = 25;
const backoffMs = (attempts: number) => Math.min(2 ** attempts * 1_000, 3_600_000);

export interface WorkerOptions {
  database: Database;
  config: Config;
  handlers?: JobHandler[];
}

export type Worker = ReturnType<typeof createWorker>;

/**
 * The worker loop: claims due jobs up to WORKER_CONCURRENCY, runs each with its kind's handler, and sleeps
 * until NOTIFY (a job was written), a job finishing, the next due time or the poll interval, whichever
 * comes first. Many workers may run against one PostgreSQL; SKIP LOCKED keeps them apart.
 */
export function createWorker(opts: WorkerOptions) {
  const { database, config } = opts;
  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const handlers = new Map((opts.handlers ?? JOB_HANDLERS).map((h) => [h.kind, h]));
  const inFlight = new Set<Promise<void>>();
  // Finished jobs are deleted in one statement per loop turn; a crash before that only makes a job run
  // again, and every handler treats an already finished job as done.
  let finished: string[] = [];
  let running = false;
  let woken = false;
  let wakeup: (() => void) | null = null;
  let loopDone: Promise<void> = Promise.resolve();
  let unlisten: (() => Promise<void>) | null = null;
  let maintenanceTimer: NodeJS.Timeout | null = null;
  let billingTimer: NodeJS.Timeout | null = null;
  // Set on every loop turn; a turn never sleeps longer than WORKER_POLL_MS, so an old beat means a stuck loop.
  let beatAt: number | null = null;

  function wake() {
    woken = true;
    wakeup?.();
  }

  function sleep(ms: number) {
    return new Promise<void>((resolve) => {
      if (woken || !running) return resolve();
      const done = () => {
        clearTimeout(timer);
        wakeup = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakeup = done;
    });
  }

  async function run(job: JobRow) {
    const handler = handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`No handler for job kind ${job.kind} in this process`);
      const outcome = await handler.run(job, { database, config });
      if (outcome.kind === 'done') finished.push(job.id);
      else await rescheduleJob(database.db, job.id, outcome.at, outcome.error);
    } catch (err) {
      // Stored on the job as well as logged: never the driver's message, which lists the statement's values.
      const message = errorText(err);
      logger.error({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: message }, 'job failed');
      const retry = job.attempts < MAX_JOB_FAILURES;
      await (retry
        ? rescheduleJob(database.db, job.id, new Date(now().getTime() + backoffMs(job.attempts)), message)
        : buryJob(database.db, job.id, message)
      ).catch(() => undefined);
    }
  }

  async function flushFinished() {
    if (finished.length === 0) return;
    const ids = finished;
    finished = [];
    await finishJobs(database.db, ids).catch((err: Error) => logger.error({ err }, 'deleting finished jobs failed'));
  }

  async function loop() {
    const refillAt = Math.ceil(config.WORKER_CONCURRENCY / 2);
    while (running) {
      beatAt = now().getTime();
      woken = false;
      const free = config.WORKER_CONCURRENCY - inFlight.size;
      // While busy, claim (and clear finished jobs) in batches of half the slots, not once per job.
      if (free <= 0 || (free < refillAt && inFlight.size > 0)) {
        await sleep(config.WORKER_POLL_MS);
        continue;
      }
      await flushFinished();
      let claimed: JobRow[] = [];
      try {
        claimed = await claimJobs(database.db, id, free, config.WORKER_LEASE_MS);
      } catch (err) {
        if (running) logger.error({ err }, 'claiming jobs failed');
      }
      for (const job of claimed) {
        const p = run(job).finally(() => {
          inFlight.delete(p);
          wake();
        });
        inFlight.add(p);
      }
      if (claimed.length === free) continue;
      // Nothing more is due now: sleep until a NOTIFY, a job finishing, the next due time or the poll.
      const next = claimed.length ? null : await nextDueAt(database.db).catch(() => null);
      const untilNext = next ? next.getTime() - now().getTime() : config.WORKER_POLL_MS;
      await sleep(Math.min(Math.max(untilNext, 10), config.WORKER_POLL_MS));
    }
  }

  const maintain = () =>
    runMaintenance(database.db, config).catch((err: Error) => logger.error({ err }, 'maintenance failed'));

  // Renewals, retries and dunning stage moves (server/domain/billing/dunning.ts); a failure waits for the next tick.
  const bill = () =>
    runBillingTick(database.db).catch((err: unknown) => {
      logger.error({ err: errorText(err) }, 'billing tick failed');
      return 0;
    });
  // The timer skips a beat while its previous pass still runs (other workers share the work through SKIP LOCKED).
  let billing: Promise<number> | null = null;
  const billOnTimer = () => {
    billing ??= bill().finally(() => {
      billing = null;
    });
  };

  return {
    id,
    wake,
    /** Retention and the delivery-history cap; also run on a timer while the worker runs. */
    runMaintenance: maintain,
    /** One billing pass at the current clock (the number of accounts handled); also run every WORKER_BILLING_MS while the worker runs. */
    runBilling: bill,
    async start() {
      if (running) return;
      running = true;
      unlisten = await database.listen(JOBS_CHANNEL, wake).catch((err: Error) => {
        logger.warn({ err }, 'LISTEN unavailable; the worker polls');
        return null;
      });
      loopDone = loop()
        .catch((err: Error) => logger.error({ err }, 'worker loop ended'))
        .finally(() => {
          beatAt = null;
        });
      maintenanceTimer = setInterval(maintain, config.WORKER_MAINTENANCE_MS);
      maintenanceTimer.unref();
      billingTimer = setInterval(billOnTimer, config.WORKER_BILLING_MS);
      billingTimer.unref();
    },
    /** For /readyz: whether start() ran and stop() did not, and when the loop last went round (null once it ended). */
    health: () => ({ running, beatAt }),
    /**
     * Stops claiming, then waits for the jobs in hand (each bounded by the send timeout), or `graceMs` when
     * given (a graceful shutdown's drain time): leases still held then are handed back so that another worker
     * claims those jobs at once instead of after WORKER_LEASE_MS (each handler tolerates a second run).
     */
    async stop(opts: { graceMs?: number } = {}) {
      if (!running) return;
      running = false;
      if (maintenanceTimer) clearInterval(maintenanceTimer);
      if (billingTimer) clearInterval(billingTimer);
      wake();
      let timer: NodeJS.Timeout | undefined;
      const grace = opts.graceMs === undefined ? null : new Promise<void>((r) => (timer = setTimeout(r, opts.graceMs)));
      const settled = (async () => {
        await loopDone;
        await billing;
        await Promise.allSettled([...inFlight]);
      })();
      await (grace ? Promise.race([settled, grace]) : settled);
      clearTimeout(timer);
      await flushFinished();
      const released = await releaseLeases(database.db, id).catch(() => 0);
      if (released) logger.warn({ worker: id, released }, 'worker stopped with jobs in hand: leases released');
      await unlisten?.().catch(() => undefined);
    },
  };
}
