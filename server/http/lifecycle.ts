import type { Server } from 'node:http';
import { logger } from '@/server/lib/logger';
import { metrics } from '@/server/lib/metrics';
import { processState } from '@/server/lib/process-container';

/**
 * Whether this process is draining (issue 37, graceful shutdown), and who must hear when it starts: /readyz
 * answers 503 from then on (health.ts) and every open event stream ends with a retry hint (event-stream.ts).
 * In the process container: Next.js may load a second copy of this module in the process.
 */
interface LifecycleState {
  draining: boolean;
  inFlight: number;
  listeners: Set<() => void>;
  idleWaiters: Set<() => void>;
}

const newState = (): LifecycleState => ({ draining: false, inFlight: 0, listeners: new Set(), idleWaiters: new Set() });
const state = () => processState('lifecycle', newState);

export const isDraining = () => state().draining;
export const requestsInFlight = () => state().inFlight;

/** Runs `fn` when draining starts (at once if it has); returns the unsubscribe. */
export function onDrain(fn: () => void): () => void {
  const s = state();
  if (s.draining) {
    fn();
    return () => undefined;
  }
  s.listeners.add(fn);
  return () => s.listeners.delete(fn);
}

export function beginDrain(): void {
  const s = state();
  if (s.draining) return;
  s.draining = true;
  metrics().draining.set(1);
  for (const fn of [...s.listeners]) {
    try {
      fn();
    } catch (err) {
      logger.warn({ err }, 'a drain listener failed');
    }
  }
  s.listeners.clear();
}

/** Counts a request from its arrival until `done` (its response closed: finished, or the client went away). */
export function trackRequest(): { done(): void } {
  const s = state();
  s.inFlight++;
  return {
    done() {
      s.inFlight--;
      if (s.inFlight === 0) for (const w of [...s.idleWaiters]) w();
    },
  };
}

/** Resolves true once no request is in flight, or false after `ms`. */
export function waitIdle(ms: number): Promise<boolean> {
  const s = state();
  if (s.inFlight === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (idle: boolean) => {
      clearTimeout(timer);
      s.idleWaiters.delete(onIdle);
      resolve(idle);
    };
    const onIdle = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    s.idleWaiters.add(onIdle);
  });
}

export interface ShutdownSteps {
  server: Server;
  /** SHUTDOWN_DELAY_MS: /readyz already answers 503 while the listener stays open this long. */
  delayMs: number;
  /** SHUTDOWN_DRAIN_MS: how long requests in flight get to finish once the listener is closed. */
  drainMs: number;
  /** Other listeners of this process (METRICS_PORT) that close with it. */
  extraServers?: Server[];
  stopWorker(graceMs: number): Promise<void>;
  closeServices(): Promise<void>;
}

/**
 * SIGTERM: readiness fails first, event streams end with a retry hint, then (after the delay) the listener
 * closes, idle keep-alive connections are closed and busy ones close after their response; requests in flight
 * finish within the drain time (only those still running then are cut), the worker stops and hands back its
 * leases, and the database and Redis close. Resolves when the process may exit 0.
 */
export async function gracefulShutdown(steps: ShutdownSteps): Promise<void> {
  const started = Date.now();
  beginDrain();
  // The worker stops claiming at once and gets the same drain time for the jobs in hand (its own promise:
  // jobs and requests drain side by side). Jobs that requests enqueue meanwhile wait for another worker.
  const workerStopped = steps.stopWorker(steps.drainMs).catch((err: unknown) => logger.warn({ err }, 'shutdown: worker stop failed'));
  logger.info({ inFlight: requestsInFlight(), delayMs: steps.delayMs, drainMs: steps.drainMs }, 'shutdown: draining');
  if (steps.delayMs > 0) await new Promise((r) => setTimeout(r, steps.delayMs));
  const closed = new Promise<void>((r) => steps.server.close(() => r()));
  for (const s of steps.extraServers ?? []) s.close();
  // server.close() ends idle keep-alive sockets once; a busy one becomes idle after its response (which says
  // `Connection: close` while draining, observe.ts), so sweep again until the drain is over.
  steps.server.closeIdleConnections();
  const sweep = setInterval(() => steps.server.closeIdleConnections(), 50);
  const idle = await waitIdle(steps.drainMs);
  clearInterval(sweep);
  steps.server.closeIdleConnections();
  if (!idle) {
    logger.warn({ cut: requestsInFlight() }, 'shutdown: drain time over, cutting the requests still in flight');
    steps.server.closeAllConnections();
  }
  await closed;
  await workerStopped;
  await steps.closeServices().catch((err: unknown) => logger.warn({ err }, 'shutdown: closing services failed'));
  logger.info({ ms: Date.now() - started }, 'shutdown: done');
}
