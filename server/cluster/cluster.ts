import cluster, { type Worker } from 'node:cluster';
import { truthy, type Config } from '@/server/lib/config';
import { logger } from '@/server/lib/logger';
import { METRICS_REQUEST, METRICS_RESPONSE, startMetricsListener } from '@/server/lib/metrics-scrape';
import { collectClusterMetrics } from './cluster-metrics';

// A process that dies this soon after its start is crash-looping: its restart waits longer each time.
const QUICK_DEATH_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;

interface Slot {
  worker: Worker;
  startedAt: number;
  restartDelayMs: number;
  /** Has listened (its 'listening' event) and not exited: serving, so asked for its metrics. */
  listening: boolean;
}

/**
 * The primary of `npm start` with WEB_CONCURRENCY > 1 (issue 37): forks that many web processes, which share
 * PORT through node:cluster (the primary accepts and hands connections round-robin). Slot 0 is forked first and
 * alone runs the background worker (when RUN_WORKER is on) and the demo seed; the others follow once it listens,
 * after its migrations. A process that dies is forked again in its slot, so the deployment keeps exactly one
 * embedded worker. SIGTERM/SIGINT is passed to every process, each drains (server/http/lifecycle.ts), and the
 * primary exits 0 when all of them did. The primary serves no request; it merges the metrics of the processes that
 * listen and answer in time (server/cluster/cluster-metrics.ts): a scrape while one starts or hangs still has data.
 */
export async function runCluster(config: Config): Promise<void> {
  const count = config.WEB_CONCURRENCY;
  const slots = new Map<number, Slot>();
  let stopping = false;
  let failed = false;
  // A process that dies before any ever listened met a start-up error (configuration, database): fail, don't loop.
  let listened = false;

  const clusterMetrics = async () => {
    const up = [...slots.entries()]
      .filter(([, s]) => s.listening)
      .sort(([a], [b]) => a - b)
      .map(([slot, s]) => ({ slot, peer: s.worker }));
    const { body, contentType, reporting, leftOut } = await collectClusterMetrics(up, { configured: count });
    if (leftOut.length > 0) logger.warn({ leftOut, reporting, listening: up.length }, 'metrics scrape: web processes that did not answer are left out');
    return { body, contentType };
  };
  const metricsServer = startMetricsListener(config, clusterMetrics);

  function fork(slot: number, restartDelayMs = 1_000): Promise<void> {
    const env: Record<string, string> = { FR_WEB_SLOT: String(slot) };
    if (slot !== 0) {
      env.RUN_WORKER = 'false';
      env.SEED_DEMO = 'false';
    }
    const worker = cluster.fork(env);
    slots.set(slot, { worker, startedAt: Date.now(), restartDelayMs, listening: false });
    worker.on('message', (msg: { type?: string; id?: string }) => {
      if (msg?.type !== METRICS_REQUEST) return;
      // A process that exits meanwhile has no one left to answer: the callback takes the error (no 'error' event).
      const reply = (answer: object) => worker.send({ type: METRICS_RESPONSE, id: msg.id, ...answer }, () => undefined);
      clusterMetrics()
        .then(reply)
        .catch((err: Error) => reply({ error: err.message }));
    });
    worker.on('exit', (code, signal) => {
      if (slots.get(slot)?.worker !== worker) return;
      // From here until its successor listens, the slot is not asked for metrics.
      slots.get(slot)!.listening = false;
      if (stopping) {
        if (code !== 0) failed = true;
        slots.delete(slot);
        if (slots.size === 0) finish();
        return;
      }
      if (!listened) {
        logger.error({ slot, code, signal }, 'a web process failed to start');
        stopping = true;
        failed = true;
        slots.delete(slot);
        for (const other of slots.values()) other.worker.process.kill('SIGTERM');
        if (slots.size === 0) finish();
        return;
      }
      const s = slots.get(slot)!;
      const quick = Date.now() - s.startedAt < QUICK_DEATH_MS;
      const delay = quick ? Math.min(s.restartDelayMs * 2, MAX_RESTART_DELAY_MS) : 1_000;
      logger.error({ slot, pid: worker.process.pid, code, signal, restartInMs: delay }, 'web process died; starting another in its slot');
      setTimeout(() => {
        if (!stopping) void fork(slot, delay);
      }, delay);
    });
    return new Promise((resolve) => {
      worker.once('listening', () => {
        listened = true;
        const s = slots.get(slot);
        if (s?.worker === worker) s.listening = true;
        resolve();
      });
      worker.once('exit', () => resolve());
    });
  }

  function finish() {
    metricsServer?.close();
    logger.info({ failed }, 'all web processes stopped');
    process.exit(failed ? 1 : 0);
  }

  function stop(signal: NodeJS.Signals) {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, processes: slots.size }, 'stopping the web processes');
    if (slots.size === 0) return finish();
    for (const { worker } of slots.values()) worker.process.kill('SIGTERM');
    // Each process bounds its own drain; this is the backstop for one that hangs past it.
    const backstop = config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_DRAIN_MS + 15_000;
    setTimeout(() => {
      logger.error({ left: slots.size }, 'web processes still running after the drain time: killing them');
      failed = true;
      for (const { worker } of slots.values()) worker.process.kill('SIGKILL');
    }, backstop).unref();
  }
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  logger.info({ processes: count, worker: truthy(config.RUN_WORKER) ? 'in process 0' : 'none (RUN_WORKER=false)' }, 'starting web processes');
  await fork(0);
  await Promise.all(Array.from({ length: count - 1 }, (_, i) => fork(i + 1)));
}
