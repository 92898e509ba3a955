import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { BenchError, ROOT, freePort, log, onCleanup, spawnChild, waitForHealthy, type Child } from './lib';
import { BENCH_METRICS_TOKEN } from './runtime-metrics';

export type DbKind = 'pglite' | 'postgres';

export interface RunningServer {
  baseUrl: string;
  pid: number;
  child: Child;
  /** The plaintext ops key the server was started with (OPS_BOOTSTRAP_KEY). */
  opsKey: string;
  startupMs: number;
  /** Serves /metrics to the bench (BENCH_METRICS_TOKEN): the project's server. */
  runtimeMetrics?: boolean;
}

/** Environment variables the server reads; stripped from the inherited environment so the caller's shell can't leak in. */
const SERVER_CONFIG_VARS = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'PGLITE_DATA_DIR',
  'REDIS_URL',
  'OPS_BOOTSTRAP_KEY',
  'AUTH_SECRET',
  'SEED_DEMO',
  'LOG_LEVEL',
  'RATE_LIMIT_LIVE',
  'RATE_LIMIT_SANDBOX',
  'EMBED_RATE_LIMIT',
  'MAIL_OUTBOX_DIR',
  'SMTP_URL',
  'PUBLIC_URL',
  'FR_NO_NEXT',
  'NODE_ENV',
  'NEXTAUTH_SECRET',
  'NODE_OPTIONS',
  'MALLOC_ARENA_MAX',
  'WEB_CONCURRENCY',
  'RUN_WORKER',
];

function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of SERVER_CONFIG_VARS) delete env[name];
  return env;
}

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The bare node:http JSON server the run is compared against. */
export async function startBaseline(): Promise<RunningServer> {
  const port = await freePort();
  const child = spawnChild('baseline', ['--import', 'tsx', 'bench/baseline-server.ts'], { ...baseEnv(), PORT: String(port) });
  const baseUrl = `http://127.0.0.1:${port}`;
  const startupMs = await waitForHealthy(`${baseUrl}/healthz`, child);
  return { baseUrl, pid: child.pid, child, opsKey: '', startupMs };
}

/** Bare node:http serving one page's bytes (bench/static-page-server.ts): the floor a page is compared against; `gzip` compresses as a browser accepts. */
export async function startStaticPage(file: string, contentType: string, opts: { gzip?: boolean } = {}): Promise<RunningServer> {
  const port = await freePort();
  const env = { ...baseEnv(), PORT: String(port), PAGE_FILE: file, PAGE_CONTENT_TYPE: contentType, ...(opts.gzip ? { PAGE_GZIP: '1' } : {}) };
  const child = spawnChild('static page', ['--import', 'tsx', 'bench/static-page-server.ts'], env);
  const baseUrl = `http://127.0.0.1:${port}`;
  const startupMs = await waitForHealthy(`${baseUrl}/`, child);
  return { baseUrl, pid: child.pid, child, opsKey: '', startupMs };
}

/**
 * The same-SQL reference of the flows scenario (bench/same-sql-server.ts) on the server's PostgreSQL database,
 * with `npm start`'s NODE_OPTIONS and malloc arena cap, like the server it is compared with.
 */
export function startSameSqlReference(databaseUrl: string): Promise<RunningServer> {
  return startReference('same-SQL reference', 'bench/same-sql-server.ts', { DATABASE_URL: databaseUrl });
}

/** The flows stack floor (bench/flows-stack-floor-server.ts): the reference's runtime on tRPC + zod + drizzle alone, on the server's PostgreSQL database. */
export function startFlowsStackFloor(databaseUrl: string): Promise<RunningServer> {
  return startReference('flows stack floor', 'bench/flows-stack-floor-server.ts', { DATABASE_URL: databaseUrl });
}

/** A floor of the keys read (bench/keys-floor-server.ts: `sql` is bare node:http + pg, `stack` the settled stack alone) on the server's PostgreSQL database. */
export function startKeysFloor(databaseUrl: string, floor: 'sql' | 'stack', key: string): Promise<RunningServer> {
  return startReference(`keys floor (${floor})`, 'bench/keys-floor-server.ts', { DATABASE_URL: databaseUrl, FLOOR: floor, KEY: key });
}

/** A bench server the project is compared with, started as `npm start` starts the project (NODE_OPTIONS, malloc arena cap). */
async function startReference(name: string, script: string, own: Record<string, string>): Promise<RunningServer> {
  const start = npmStartSettings();
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...baseEnv(), ...own, PORT: String(port), NODE_ENV: 'production', NODE_OPTIONS: start.nodeOptions, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX || start.mallocArenaMax };
  // BENCH_SERVER_NODE_ARGS profiles the references too, so their profiles compare with the project's layer by layer.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawnChild(name, [...nodeArgs, '--import', 'tsx', script], env);
  const baseUrl = `http://127.0.0.1:${port}`;
  const startupMs = await waitForHealthy(`${baseUrl}/healthz`, child);
  return { baseUrl, pid: child.pid, child, opsKey: '', startupMs };
}

/** BENCH_NO_NEXT=1 measures the API-only server (`FR_NO_NEXT=1`), the figure earlier runs reported. */
export const WITH_NEXT = process.env.BENCH_NO_NEXT !== '1';

/**
 * The real server started the way `npm start` starts it (the compiled server, `scripts/run-built.mjs start`:
 * Next.js loaded, production mode, `npm start`'s NODE_OPTIONS and malloc arena cap) on the given database.
 * Spawned with node rather than through npm so the child's pid is the server's own (for RSS).
 */
export async function startServer(db: DbKind, databaseUrl?: string): Promise<RunningServer> {
  if (WITH_NEXT) ensureNextBuild();
  ensureServerBuild();
  const start = npmStartSettings();
  const port = await freePort();
  const dir = tempDir(`fr-bench-${db}-`);
  const opsKey = `ops_bench_${randomBytes(16).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    ...(WITH_NEXT ? {} : { FR_NO_NEXT: '1' }),
    NODE_ENV: 'production',
    NODE_OPTIONS: start.nodeOptions,
    NEXT_TELEMETRY_DISABLED: '1',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    OPS_BOOTSTRAP_KEY: opsKey,
    // The bench reads the server's GC, event-loop delay and pool queue during each run (bench/runtime-metrics.ts).
    METRICS_TOKEN: BENCH_METRICS_TOKEN,
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    RATE_LIMIT_LIVE: '1000000',
    RATE_LIMIT_SANDBOX: '1000000',
    // Public (embed key) paths are limited per key and client address; every bench request comes from one.
    EMBED_RATE_LIMIT: '100000',
    SEED_DEMO: 'false',
    MAIL_OUTBOX_DIR: path.join(dir, 'mail'),
    ...(db === 'pglite' ? { PGLITE_DATA_DIR: path.join(dir, 'pglite') } : { DATABASE_URL: databaseUrl }),
    // BENCH_WEB_CONCURRENCY=2: the PostgreSQL pass runs `npm start` with that many web processes (issue 37). Its RSS
    // and CPU figures are then the cluster primary's only: read the processes' own from /metrics.
    ...(db === 'postgres' && process.env.BENCH_WEB_CONCURRENCY ? { WEB_CONCURRENCY: process.env.BENCH_WEB_CONCURRENCY } : {}),
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX || start.mallocArenaMax,
  };
  // BENCH_SERVER_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the server, not the bench.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawnChild(`server (${db})`, [...nodeArgs, 'scripts/run-built.mjs', 'start'], env);
  const baseUrl = `http://127.0.0.1:${port}`;
  const startupMs = await waitForHealthy(`${baseUrl}/healthz`, child);
  return { baseUrl, pid: child.pid, child, opsKey, startupMs, runtimeMetrics: true };
}

/**
 * `npm start`'s NODE_OPTIONS and MALLOC_ARENA_MAX default, read from package.json's `start` script itself so
 * that the bench cannot drift from it (docs/decisions/performance.md, "The bench measures the server as npm start runs it").
 */
export function npmStartSettings(): { nodeOptions: string; mallocArenaMax: string } {
  const script: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const nodeOptions = /NODE_OPTIONS="([^"$]*?)\s*\$NODE_OPTIONS"/.exec(script)?.[1];
  const mallocArenaMax = /MALLOC_ARENA_MAX=\$\{MALLOC_ARENA_MAX:-(\d+)\}/.exec(script)?.[1];
  if (!nodeOptions || !mallocArenaMax || !script.includes('scripts/run-built.mjs start')) {
    throw new BenchError(`package.json's start script no longer has the shape bench/servers.ts reads: ${script}`);
  }
  return { nodeOptions, mallocArenaMax };
}

/** The compiled server, built before any spawn: processes started together must not all build it at once. */
export function ensureServerBuild() {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs')], { cwd: ROOT, stdio: 'inherit' });
}

/** `npm start` builds Next.js on a first start; the bench does it before the clock starts instead. */
function ensureNextBuild() {
  if (fs.existsSync(path.join(ROOT, '.next/BUILD_ID'))) return;
  log('no production build of Next.js: running next build first');
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...baseEnv(), NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
  });
}

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL scratch database

/**
 * A PostgreSQL on the same machine is reached over its Unix socket when it has one, as a same-host
 * deployment should be: every statement's round trip skips the TCP loopback (≈ 20% more approvals/s here).
 */
const LOCAL_SOCKET_DIR = '/var/run/postgresql';
export const PG_ADMIN_URL =
  process.env.BENCH_PG_URL ||
  (fs.existsSync(path.join(LOCAL_SOCKET_DIR, '.s.PGSQL.5432')) ? `postgresql://postgres@localhost/postgres?host=${LOCAL_SOCKET_DIR}` : 'postgresql://postgres@127.0.0.1:5432/postgres');
/** How the bench reaches PostgreSQL, for the report. */
export const PG_TRANSPORT = new URL(PG_ADMIN_URL).searchParams.get('host')?.startsWith('/') ? `Unix socket ${new URL(PG_ADMIN_URL).searchParams.get('host')}` : new URL(PG_ADMIN_URL).host;

export interface ScratchDatabase {
  url: string;
  name: string;
  serverVersion: string;
  drop(): Promise<void>;
}

/**
 * Creates `fr_bench_<random>` next to the admin database and registers its drop. Returns null (with the
 * reason) when PostgreSQL is switched off (BENCH_PG=0) or unreachable.
 */
export async function createScratchDatabase(): Promise<ScratchDatabase | { skipped: string }> {
  if (process.env.BENCH_PG === '0') return { skipped: 'BENCH_PG=0' };
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  let serverVersion: string;
  try {
    await admin.connect();
    serverVersion = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version;
  } catch (err) {
    await admin.end().catch(() => undefined);
    return { skipped: `PostgreSQL unreachable at ${redact(PG_ADMIN_URL)} (${err instanceof Error ? err.message : String(err)})` };
  }
  const name = `fr_bench_${randomBytes(6).toString('hex')}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (err) {
    await admin.end().catch(() => undefined);
    throw new BenchError(`could not create database ${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Not held open until the drop: a PostgreSQL restart (the soak's) would end it with an unhandled error.
  await admin.end().catch(() => undefined);
  let dropped = false;
  const keep = process.env.BENCH_KEEP_DB === '1';
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    if (keep) return;
    const dropper = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 10_000 });
    try {
      await dropper.connect();
      // The server has been stopped by now; FORCE covers a pool that did not close cleanly.
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      log(`dropped database ${name}`);
    } finally {
      await dropper.end().catch(() => undefined);
    }
  };
  // BENCH_KEEP_DB=1 keeps the database for a look afterwards (EXPLAIN, counts); drop it by hand.
  if (keep) log(`keeping database ${name} (BENCH_KEEP_DB=1)`);
  onCleanup(drop);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, serverVersion, drop };
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}
