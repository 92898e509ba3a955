import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, log, onCleanup, spawnChild, waitForHealthy, type Child } from '../lib';
import { ensureServerBuild } from '../servers';

/** What every process of the soak deployment shares: one PostgreSQL, one Redis, one secret, one ops key. */
export interface Deployment {
  databaseUrl: string;
  redisUrl: string;
  opsKey: string;
  metricsToken: string;
  env: NodeJS.ProcessEnv;
}

export const LIMIT_PER_SEC = Number(process.env.SOAK_RATE_LIMIT ?? 40);

export function deployment(databaseUrl: string, redisUrl: string): Deployment {
  // Built once here: the web processes and the worker start together and must not all build it at once.
  ensureServerBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-soak-'));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  const opsKey = `ops_soak_${randomBytes(16).toString('hex')}`;
  const metricsToken = `metrics_${randomBytes(16).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    FR_NO_NEXT: process.env.SOAK_NEXT === '1' ? '0' : '1',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    OPS_BOOTSTRAP_KEY: opsKey,
    METRICS_TOKEN: metricsToken,
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    // The live limit is the one the soak measures (a live key of its own); sandbox keys carry the load.
    RATE_LIMIT_LIVE: String(LIMIT_PER_SEC),
    RATE_LIMIT_SANDBOX: '1000000',
    EMBED_RATE_LIMIT: '100000',
    WEBHOOKS_ALLOW_LOCALHOST: 'true',
    // Short retries so that a delivery failed by the receiver is retried (or dies) within the run.
    WEBHOOK_RETRY_SCHEDULE: '0,1s,2s,3s',
    WEBHOOK_TIMEOUT_MS: '5000',
    WORKER_LEASE_MS: '10000',
    // Housekeeping keeps only each endpoint's newest finished deliveries: off for the run, so that the webhook
    // invariant can read every delivery's outcome (a dead one is allowed; a lost one is not).
    WORKER_MAINTENANCE_MS: '86400000',
    DISPATCH_GRACE_MS: '5000',
    SEED_DEMO: 'false',
    SSE_HEARTBEAT_MS: '2000',
    MAIL_OUTBOX_DIR: path.join(dir, 'mail'),
    MAIL_OUTBOX_IN_PRODUCTION: 'true',
    SHUTDOWN_DRAIN_MS: '10000',
  };
  return { databaseUrl, redisUrl, opsKey, metricsToken, env };
}

/** A process of the deployment that the soak may kill -9 and start again on the same port. */
export interface Managed {
  name: string;
  baseUrl: string | null;
  current(): Child;
  kill9(): void;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startWeb(d: Deployment, name: string): Promise<Managed> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const spawn = async () => {
    const child = spawnChild(name, ['scripts/run-built.mjs', 'start'], { ...d.env, PORT: String(port), RUN_WORKER: 'false' });
    await waitForHealthy(`${baseUrl}/readyz`, child);
    return child;
  };
  return managed(name, baseUrl, spawn);
}

export async function startWorker(d: Deployment): Promise<Managed> {
  const spawn = async () => {
    const child = spawnChild('worker', ['scripts/run-built.mjs', 'worker'], { ...d.env });
    // The worker has no listener: started once it logged (LOG_LEVEL=warn hides it), so give it the migrations' time.
    await Promise.race([new Promise((r) => setTimeout(r, 3000)), child.exited]);
    return child;
  };
  return managed('worker', null, spawn);
}

async function managed(name: string, baseUrl: string | null, spawn: () => Promise<Child>): Promise<Managed> {
  let child = await spawn();
  let killed: Promise<void> | null = null;
  return {
    name,
    baseUrl,
    current: () => child,
    kill9() {
      const proc = child.process;
      killed = new Promise((r) => proc.once('exit', () => r()));
      // Expected from here: the bench must not treat this exit as a failure.
      child.exited.catch(() => undefined);
      proc.kill('SIGKILL');
    },
    async restart() {
      await killed;
      child = await spawn();
    },
    stop: () => child.stop(),
  };
}

const run = (cmd: string) => execSync(cmd, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }).toString();

/** PostgreSQL restart, when this machine lets the soak do it (a local cluster it can control). */
export function pgControl(): { restart(): void } | { skipped: string } {
  // Debian's cluster of the installed version; --skip-systemctl-redirect: these machines run no systemd.
  const version = fs.existsSync('/etc/postgresql') ? (fs.readdirSync('/etc/postgresql').sort().at(-1) ?? '15') : '15';
  const cmd = process.env.SOAK_PG_RESTART_CMD ?? `pg_ctlcluster --skip-systemctl-redirect ${version} main restart`;
  if (process.getuid?.() !== 0 && !process.env.SOAK_PG_RESTART_CMD) return { skipped: 'not root: set SOAK_PG_RESTART_CMD to restart PostgreSQL' };
  try {
    run('command -v pg_ctlcluster');
  } catch {
    if (!process.env.SOAK_PG_RESTART_CMD) return { skipped: 'no pg_ctlcluster here: set SOAK_PG_RESTART_CMD' };
  }
  return { restart: () => void run(cmd) };
}

/** Redis stop and start (SOAK_REDIS_STOP_CMD / SOAK_REDIS_START_CMD override the local defaults). */
export function redisControl(redisUrl: string): { stop(): void; start(): void } | { skipped: string } {
  const u = new URL(redisUrl);
  const host = u.hostname;
  const port = u.port || '6379';
  if (!['127.0.0.1', 'localhost'].includes(host) && !process.env.SOAK_REDIS_STOP_CMD) return { skipped: `Redis at ${host} is not local: set SOAK_REDIS_STOP_CMD and SOAK_REDIS_START_CMD` };
  const stop = process.env.SOAK_REDIS_STOP_CMD ?? `redis-cli -h ${host} -p ${port} shutdown nosave`;
  const start = process.env.SOAK_REDIS_START_CMD ?? `redis-server --bind ${host} --port ${port} --daemonize yes --save '' --appendonly no --dir ${os.tmpdir()}`;
  try {
    run('command -v redis-server && command -v redis-cli');
  } catch {
    if (!process.env.SOAK_REDIS_STOP_CMD) return { skipped: 'redis-server/redis-cli not found: set SOAK_REDIS_STOP_CMD and SOAK_REDIS_START_CMD' };
  }
  return {
    stop: () => {
      try {
        run(stop);
      } catch {
        // `shutdown` closes the connection it came on: redis-cli reports that as an error.
      }
    },
    start: () => {
      run(start);
      log('redis started again');
    },
  };
}
