import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { Pool, request, type Dispatcher } from 'undici';
import { sampleRuntime, type RuntimeFigures } from './runtime-metrics';

/** Repository root (the bench runs children from here so `@/…` paths and db/migrations resolve). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------------------------------------
// Settings

export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new BenchError(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

export const settings = {
  /** Seconds measured per case. */
  duration: envInt('BENCH_DURATION', 10),
  /** Seconds of unmeasured load before each case (JIT, connection pools, caches). */
  warmup: envInt('BENCH_WARMUP', 2),
  connections: envInt('BENCH_CONNECTIONS', 50),
  /** A run with more than this share of non-2xx responses or socket errors is broken, not slow. */
  maxFailureRatio: 0.01,
};

/** The bench itself failed (as opposed to a target being missed). */
export class BenchError extends Error {}

export function log(message: string) {
  process.stderr.write(`[bench] ${message}\n`);
}

// ---------------------------------------------------------------------------------------------------------
// Cleanup: every child and scratch resource registers here; runs once, on success, error or signal.

type Cleanup = () => Promise<void> | void;
const cleanups: Cleanup[] = [];
const children = new Set<ChildProcess>();
let cleaning: Promise<void> | undefined;
/** Set once the bench is shutting down: children exiting from then on are expected, not failures. */
let shuttingDown = false;

export function onCleanup(fn: Cleanup) {
  cleanups.push(fn);
}

export function cleanup(): Promise<void> {
  shuttingDown = true;
  cleaning ??= (async () => {
    while (cleanups.length) {
      const fn = cleanups.pop()!;
      try {
        await fn();
      } catch (err) {
        log(`cleanup step failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  })();
  return cleaning;
}

let handlersInstalled = false;
/** Kills children on any way out: normal exit, Ctrl-C, SIGTERM, an uncaught error. */
export function installExitHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  // Last resort, synchronous: whatever is still alive gets SIGKILL.
  process.on('exit', () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      shuttingDown = true; // a terminal's Ctrl-C reaches the children too
      log(`${signal}: stopping children`);
      void cleanup().finally(() => process.exit(130));
    });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Child processes

export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  /** The last lines the child wrote (stdout and stderr), for diagnostics. */
  tail(): string;
  /** Rejects as soon as the child exits; used to abort waits and runs when a server dies. */
  exited: Promise<never>;
  stop(): Promise<void>;
}

export function spawnChild(name: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (proc.pid === undefined) throw new BenchError(`could not start ${name}`);
  children.add(proc);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > 40) lines.shift();
    }
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  let stopping = false;
  const exited = new Promise<never>((_, reject) => {
    proc.once('exit', (code, signal) => {
      children.delete(proc);
      if (!stopping && !shuttingDown) reject(new BenchError(`${name} exited unexpectedly (code ${code}, signal ${signal})\n${lines.join('\n')}`));
    });
  });
  exited.catch(() => undefined); // observed where it matters; never an unhandled rejection
  const child: Child = {
    name,
    pid: proc.pid,
    process: proc,
    tail: () => lines.join('\n'),
    exited,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      stopping = true;
      const done = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await done;
      clearTimeout(timer);
    },
  };
  onCleanup(() => child.stop());
  return child;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `url` until it answers 200, the child dies, or the timeout passes. */
export async function waitForHealthy(url: string, child: Child, timeoutMs = 120_000): Promise<number> {
  const started = Date.now();
  const poll = async () => {
    while (Date.now() - started < timeoutMs) {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
        await res.arrayBuffer();
        if (res.ok) return Date.now() - started;
      } catch {
        // not listening yet
      }
      await sleep(200);
    }
    throw new BenchError(`${child.name} not healthy at ${url} after ${timeoutMs} ms\n${child.tail()}`);
  };
  return Promise.race([poll(), child.exited]);
}

// ---------------------------------------------------------------------------------------------------------
// Memory

/** Resident set size of a process in MB, from /proc (Linux); null where /proc is unavailable. */
export function rssMb(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `everyMs` and keeps the peak. */
export function sampleRss(pid: number, everyMs = 200) {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    const now = rssMb(pid);
    if (now !== null && (peak === null || now > peak)) peak = now;
  }, everyMs);
  return {
    stop(): number | null {
      clearInterval(timer);
      const now = rssMb(pid);
      if (now !== null && (peak === null || now > peak)) peak = now;
      return peak;
    },
  };
}

/** CPU seconds (user + system) a process has used so far (Linux /proc); null elsewhere or once it is gone. */
function cpuSeconds(pid: string | number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, in clock ticks (USER_HZ, 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** CPU seconds used so far by each process whose name starts with `postgres` (the server's backends), by pid. */
function postgresCpuByPid(): Map<string, number> | null {
  try {
    const byPid = new Map<string, number>();
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        if (!fs.readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) continue;
        const seconds = cpuSeconds(pid);
        if (seconds !== null) byPid.set(pid, seconds);
      } catch {
        // gone meanwhile
      }
    }
    return byPid;
  } catch {
    return null;
  }
}

/**
 * CPU used by the server process and by PostgreSQL from now until `stop`: a cost per unit of work that,
 * unlike throughput, hardly depends on how the two cores were shared out. PostgreSQL's figure adds up each
 * backend alive at `stop` from where it stood at the start (a new one from zero); a backend that exits in
 * between (the pool closing an idle connection) takes its time with it, so the figure is a lower bound.
 */
/** CPU seconds as milliseconds per unit of work (response, order); null when unknown or nothing was done. */
export const msPer = (seconds: number | null, units: number) => (seconds === null || units === 0 ? null : (seconds * 1000) / units);

export function cpuMeter(serverPid: number) {
  const server0 = cpuSeconds(serverPid);
  const pg0 = postgresCpuByPid();
  return {
    stop(): { serverS: number | null; postgresS: number | null } {
      const server1 = cpuSeconds(serverPid);
      const pg1 = postgresCpuByPid();
      let postgresS: number | null = null;
      if (pg0 && pg1) {
        postgresS = 0;
        for (const [pid, seconds] of pg1) postgresS += seconds - (pg0.get(pid) ?? 0);
      }
      return { serverS: server0 === null || server1 === null ? null : server1 - server0, postgresS };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Load

export interface LoadSpec {
  /** Row label, e.g. `keys: GET /v1/developer/keys`. */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Rebuilds each request (fresh Idempotency-Key, unique body …); receives the static request. */
  perRequest?: (request: autocannon.RequestData) => autocannon.RequestData;
  /**
   * Offered load: requests/s sent on an even schedule whether or not earlier ones were answered (`openLoop`),
   * instead of each connection sending again as soon as it is answered.
   */
  offeredRate?: number;
}

export interface Measurement {
  name: string;
  db: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  peakRssMb: number | null;
  total: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  durationS: number;
  /** CPU per response during the measured run (ms): the server, PostgreSQL (null when not used), and this process, the load generator. */
  cpuMs: { server: number | null; postgres: number | null; loadGenerator: number | null };
  /** The server's GC, event-loop delay and pool queue during the run (the project's server only; bench/runtime-metrics.ts). */
  runtime?: RuntimeFigures | null;
}

export interface Target {
  /** `url` and `pid` of the process under load. */
  baseUrl: string;
  pid: number;
  db: string;
  exited?: Promise<never>;
  /** The server serves /metrics to the bench (the project's server): its runtime is read during each run. */
  runtimeMetrics?: boolean;
}

function cannon(target: Target, spec: LoadSpec, duration: number) {
  const request: autocannon.Request = {
    method: spec.method,
    path: spec.path,
    headers: { ...(spec.body !== undefined ? { 'content-type': 'application/json' } : {}), ...spec.headers },
    ...(spec.body !== undefined ? { body: spec.body } : {}),
    ...(spec.perRequest ? { setupRequest: (req: autocannon.RequestData) => spec.perRequest!(req) } : {}),
  };
  return autocannon({ url: target.baseUrl, connections: settings.connections, duration, requests: [request], timeout: 10 });
}

/** What a load run reports, whichever generator ran it. */
interface LoadResult {
  total: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  p50: number;
  p99: number;
  durationS: number;
}

function fromCannon(result: autocannon.Result): LoadResult {
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(stat.count);
  return { total: result.requests.total, non2xx: result.non2xx, errors: result.errors, statusCodes, p50: result.latency.p50, p99: result.latency.p99, durationS: result.duration };
}

/**
 * Open loop: request i is sent at start + i / rate whether or not earlier ones were answered, over at most
 * `settings.connections` connections (a request finding them all busy waits for one), and its latency runs
 * from that scheduled time: a server that falls behind is charged for every request's wait (no coordinated
 * omission). autocannon's `overallRate` is no substitute: each connection sends its share of a second's
 * requests back to back at the top of every second, so it offers bursts of a closed loop.
 */
async function openLoop(target: Target, spec: LoadSpec, rate: number, duration: number): Promise<LoadResult> {
  const pool = new Pool(target.baseUrl, { connections: settings.connections, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  const send = async (due: number) => {
    const base: autocannon.RequestData = {
      method: spec.method,
      path: spec.path,
      headers: { ...(spec.body !== undefined ? { 'content-type': 'application/json' } : {}), ...spec.headers },
      ...(spec.body !== undefined ? { body: spec.body } : {}),
    };
    const req = spec.perRequest ? spec.perRequest(base) : base;
    try {
      const res = await pool.request({ method: req.method as 'POST', path: req.path!, headers: req.headers, body: req.body as string | undefined });
      await res.body.text();
      statusCodes[res.statusCode] = (statusCodes[res.statusCode] ?? 0) + 1;
      if (res.statusCode < 300) latencies.push(performance.now() - due);
    } catch {
      errors++;
    }
  };
  const count = Math.round(rate * duration);
  const start = performance.now();
  const sent: Promise<void>[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sent.push(send(due));
    }
    await Promise.all(sent);
  } finally {
    await pool.close();
  }
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN;
  const total = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  return { total, non2xx: total - latencies.length, errors, statusCodes, p50: at(50), p99: at(99), durationS: (performance.now() - start) / 1000 };
}

async function runLoad(target: Target, spec: LoadSpec, duration: number): Promise<LoadResult> {
  if (spec.offeredRate) {
    const run = openLoop(target, spec, spec.offeredRate, duration);
    return target.exited ? Promise.race([run, target.exited]) : run;
  }
  const instance = cannon(target, spec, duration);
  if (!target.exited) return fromCannon(await instance);
  try {
    return fromCannon(await Promise.race([instance, target.exited]));
  } catch (err) {
    instance.stop();
    throw err;
  }
}

/** Warm-up, then one measured autocannon run with the target's RSS sampled throughout. */
export async function measure(target: Target, spec: LoadSpec): Promise<Measurement> {
  if (settings.warmup > 0) await runLoad(target, spec, settings.warmup);
  log(`${target.db.padEnd(8)} ${spec.name}: ${settings.duration}s at ${settings.connections} connections${spec.offeredRate ? `, ${spec.offeredRate} req/s offered (open loop)` : ''}`);
  const runtimeSampler = target.runtimeMetrics ? await sampleRuntime(target.baseUrl) : null;
  const sampler = sampleRss(target.pid);
  const cpu = cpuMeter(target.pid);
  const ownCpu = process.cpuUsage();
  let result: LoadResult;
  let peakRssMb: number | null;
  let used: ReturnType<ReturnType<typeof cpuMeter>['stop']>;
  let runtime: RuntimeFigures | null = null;
  try {
    result = await runLoad(target, spec, settings.duration);
  } finally {
    peakRssMb = sampler.stop();
    used = cpu.stop();
    runtime = (await runtimeSampler?.stop()) ?? null;
  }
  const own = process.cpuUsage(ownCpu);
  const { total, statusCodes } = result;
  const m: Measurement = {
    name: spec.name,
    db: target.db,
    reqPerSec: total / result.durationS,
    p50: result.p50,
    p99: result.p99,
    peakRssMb,
    total,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes,
    durationS: result.durationS,
    cpuMs: {
      server: msPer(used.serverS, total),
      postgres: target.db === 'postgres' ? msPer(used.postgresS, total) : null,
      loadGenerator: msPer((own.user + own.system) / 1e6, total),
    },
    runtime,
  };
  const failures = m.non2xx + m.errors;
  if (total === 0) throw new BenchError(`${spec.name} on ${target.db}: no responses at all`);
  if (failures / (total + m.errors) > settings.maxFailureRatio) {
    throw new BenchError(
      `${spec.name} on ${target.db}: ${m.non2xx} non-2xx and ${m.errors} socket errors in ${total} responses ` +
        `(status codes ${JSON.stringify(statusCodes)}), more than ${settings.maxFailureRatio * 100}%`,
    );
  }
  return m;
}

// ---------------------------------------------------------------------------------------------------------
// JSON over HTTP for scenario set-up (not measured)

/** A JSON request: the bearer credential, the body as JSON with its content type, any other headers. */
export interface JsonRequest {
  bearer?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export function jsonInit(method: string, opts: JsonRequest): RequestInit {
  return {
    method,
    headers: {
      ...(opts.bearer ? { authorization: `Bearer ${opts.bearer}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  };
}

export async function api<T>(baseUrl: string, method: string, pathname: string, opts: JsonRequest & { expect?: number } = {}): Promise<T> {
  const res = await fetch(baseUrl + pathname, jsonInit(method, opts));
  const text = await res.text();
  const expect = opts.expect ?? (method === 'POST' ? 201 : 200);
  if (res.status !== expect) throw new BenchError(`${method} ${pathname}: expected ${expect}, got ${res.status}: ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

// ---------------------------------------------------------------------------------------------------------
// Formatting

export const fmt = {
  int: (n: number) => Math.round(n).toLocaleString('en-US'),
  ms: (n: number) => (n < 10 ? n.toFixed(1) : Math.round(n).toString()),
  mb: (n: number | null) => (n === null ? 'n/a' : Math.round(n).toString()),
  pct: (n: number) => `${(n * 100).toFixed(n < 0.1 ? 1 : 0)}%`,
};

/** A markdown table with padded columns: readable in a terminal and renders as a table. */
export function markdownTable(header: string[], rows: string[][], rightAlign: boolean[] = []): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length), 3));
  const pad = (cell: string, i: number) => (rightAlign[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]));
  const line = (cells: string[]) => `| ${cells.map(pad).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (rightAlign[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function parallel<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export interface SetupCallOptions {
  bearer?: string;
  body?: unknown;
  /** A non-JSON body (a CSV upload) with its content type. */
  raw?: { type: string; text: string };
  headers?: Record<string, string>;
  /** Statuses that count as success: 201 for POST, 200 otherwise, unless given. */
  expect?: number[];
}

/** One set-up request of a scenario over `dispatcher`; any status outside `expect` fails the bench, naming `label`. */
export async function setupCall<T>(
  label: string,
  dispatcher: Dispatcher,
  baseUrl: string,
  method: 'GET' | 'POST' | 'PATCH',
  pathname: string,
  opts: SetupCallOptions = {},
): Promise<{ status: number; body: T }> {
  const res = await request(baseUrl + pathname, {
    method,
    dispatcher,
    headers: {
      ...(opts.bearer ? { authorization: `Bearer ${opts.bearer}` } : {}),
      ...(opts.raw ? { 'content-type': opts.raw.type } : opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    body: opts.raw ? opts.raw.text : opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  });
  const text = await res.body.text();
  const expect = opts.expect ?? (method === 'POST' ? [201] : [200]);
  if (!expect.includes(res.statusCode)) throw new BenchError(`${label}${method} ${pathname}: expected ${expect.join('/')}, got ${res.statusCode}: ${text.slice(0, 500)}`);
  return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
}
