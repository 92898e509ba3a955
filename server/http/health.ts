import type { ServerResponse } from 'node:http';
import type { Services } from '@/server/api/context';
import { ping } from '@/server/db/client';
import { migrationsApplied } from '@/server/db/migration-status';
import { now } from '@/server/lib/clock';
import { truthy } from '@/server/lib/config';
import { logger } from '@/server/lib/logger';
import { isDraining } from './lifecycle';

export const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

/** What /readyz needs of a worker (server/jobs/worker.ts). */
export interface WorkerProbe {
  health(): { running: boolean; beatAt: number | null };
}

type Check = 'ok' | 'failing' | 'disabled' | 'unknown';
export interface Readiness {
  status: 'ok' | 'unavailable';
  checks: { database: Check; migrations: Check; worker: Check };
}

// A database that does not answer (a dropped network, a full pool) must fail the probe, not hang it.
const CHECK_TIMEOUT_MS = 2_000;

function passes(work: () => Promise<boolean | void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work(), timeout])
    .then((r) => r !== false)
    .catch((err: unknown) => {
      logger.warn({ err }, 'readiness check failed');
      return false;
    })
    .finally(() => clearTimeout(timer));
}

/**
 * A loop turn sleeps at most WORKER_POLL_MS, but may wait on a slow claim query; five turns (at least
 * ten seconds) without a beat is a loop that no longer runs, not a busy one.
 */
export const workerStaleAfterMs = (pollMs: number) => Math.max(5 * pollMs, 10_000);

export async function readiness(services: Services, worker: WorkerProbe | undefined): Promise<Readiness> {
  const { db } = services.database;
  const database: Check = (await passes(() => ping(db))) ? 'ok' : 'failing';
  const migrations: Check = database !== 'ok' ? 'unknown' : (await passes(() => migrationsApplied(db))) ? 'ok' : 'failing';
  let workerCheck: Check = 'disabled';
  if (truthy(services.config.RUN_WORKER)) {
    const h = worker?.health();
    const fresh = h?.running && h.beatAt !== null && now().getTime() - h.beatAt <= workerStaleAfterMs(services.config.WORKER_POLL_MS);
    workerCheck = fresh ? 'ok' : 'failing';
  }
  const checks = { database, migrations, worker: workerCheck };
  const ok = Object.values(checks).every((c) => c === 'ok' || c === 'disabled');
  return { status: ok ? 'ok' : 'unavailable', checks };
}

/** /healthz (the process answers) and /readyz (it can do its work): JSON, no auth, never cached, no PHI. */
export async function serveHealth(path: string, res: ServerResponse, services: Services, worker: WorkerProbe | undefined) {
  let status = 200;
  let body: object = { status: 'ok' };
  if (path === '/readyz' && isDraining()) {
    // Shutting down (SIGTERM): out of the balancer's rotation before the listener closes, whatever the checks say.
    status = 503;
    body = { status: 'draining' };
  } else if (path === '/readyz') {
    const ready = await readiness(services, worker);
    if (ready.status !== 'ok') status = 503;
    body = ready;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify(body));
}
