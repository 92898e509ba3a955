/**
 * `npm run bench`: throughput, latency and memory of the /v1 API against a bare node:http baseline measured
 * in the same run, on PGlite and on PostgreSQL. A benchmark, not a test: a missed target is reported, not
 * fatal; the process fails only when the bench itself breaks (a server dies, >1% non-2xx, …).
 *
 * Env: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2), BENCH_CONNECTIONS (default 50),
 * BENCH_PG=0 (skip PostgreSQL), BENCH_PG_URL (admin URL, default the local Unix socket /var/run/postgresql if present, else postgresql://postgres@127.0.0.1:5432/postgres),
 * BENCH_SCENARIOS=keys,… (subset), BENCH_RESULTS (output file, default bench/RESULTS.md), BENCH_NO_NEXT=1 (the
 * API-only server instead of the server as `npm start` runs it, with Next.js), BENCH_WEB_CONCURRENCY=N (the PostgreSQL
 * pass with N web processes; RSS and CPU then measure the cluster primary only). `npm run soak` is bench/soak.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BenchError,
  ROOT,
  api,
  cleanup,
  fmt,
  installExitHandlers,
  log,
  markdownTable,
  measure,
  rssMb,
  settings,
  type Measurement,
  type Target,
} from './lib';
import { scenarios } from './scenarios';
import type { Scenario, TargetCheck } from './scenarios/types';
import { createScratchDatabase, PG_TRANSPORT, startBaseline, startServer, WITH_NEXT, type DbKind, type RunningServer } from './servers';

const RSS_LIMIT_MB = 400;
const IDLE_SETTLE_MS = 3000;
const RESULTS_FILE = path.resolve(ROOT, process.env.BENCH_RESULTS || 'bench/RESULTS.md');

interface Row {
  scenario: string;
  m: Measurement;
}

function selectedScenarios(): Scenario[] {
  const wanted = process.env.BENCH_SCENARIOS?.split(',').map((s) => s.trim()).filter(Boolean);
  if (!wanted?.length) return scenarios;
  const unknown = wanted.filter((id) => !scenarios.some((s) => s.id === id));
  if (unknown.length) throw new BenchError(`unknown scenario(s) ${unknown.join(', ')}; known: ${scenarios.map((s) => s.id).join(', ')}`);
  return scenarios.filter((s) => wanted.includes(s.id));
}

function target(server: RunningServer, db: string): Target {
  return { baseUrl: server.baseUrl, pid: server.pid, db, exited: server.child.exited };
}

async function runDatabase(db: DbKind, server: RunningServer, selected: Scenario[], baseline: Measurement, rows: Row[], checks: TargetCheck[], sections: string[], idleRssMb: number | null) {
  let tenants = 0;
  for (const scenario of selected) {
    const results = new Map<string, Measurement>();
    await scenario.run({
      db,
      server,
      async measure(spec) {
        const m = await measure(target(server, db), spec);
        rows.push({ scenario: scenario.id, m });
        results.set(m.name, m);
        return m;
      },
      async newTenant(name) {
        const tenant = await api<{ id: string }>(server.baseUrl, 'POST', '/v1/ops/tenants', {
          bearer: server.opsKey,
          body: { name: `${name} ${++tenants}` },
        });
        const created = await api<{ key: string }>(server.baseUrl, 'POST', `/v1/developer/keys/ops/tenants/${tenant.id}`, {
          bearer: server.opsKey,
          body: { name: 'bench', mode: 'live' },
        });
        return { tenantId: tenant.id, key: created.key };
      },
      section(title, markdown) {
        sections.push(`### ${title}\n\n${markdown}`);
      },
    });
    checks.push(...(scenario.targets?.({ db, results, baseline, idleRssMb }) ?? []));
  }
  const dbRows = rows.filter((r) => r.m.db === db);
  const peaks = dbRows.map((r) => r.m.peakRssMb).filter((v): v is number => v !== null);
  if (peaks.length) {
    const peak = Math.max(...peaks);
    checks.push({ target: `server peak RSS ≤ ${RSS_LIMIT_MB} MB`, db, actual: `${fmt.mb(peak)} MB`, pass: peak <= RSS_LIMIT_MB });
  }
}

function resultsTable(rows: Row[], baseline: Measurement): string {
  return markdownTable(
    ['scenario', 'db', 'req/s', 'p50 ms', 'p99 ms', 'peak RSS MB', 'vs baseline', 'non-2xx', 'CPU ms/req: server', 'PostgreSQL', 'load gen'],
    rows.map(({ m }) => [
      m.name,
      m.db,
      fmt.int(m.reqPerSec),
      fmt.ms(m.p50),
      fmt.ms(m.p99),
      fmt.mb(m.peakRssMb),
      m === baseline ? '100%' : fmt.pct(m.reqPerSec / baseline.reqPerSec),
      `${m.non2xx}${m.errors ? ` (+${m.errors} errors)` : ''}`,
      cpuCell(m.cpuMs.server),
      cpuCell(m.cpuMs.postgres),
      cpuCell(m.cpuMs.loadGenerator),
    ]),
    [false, false, true, true, true, true, true, true, true, true, true],
  );
}

const cpuCell = (ms: number | null) => (ms === null ? '—' : ms < 0.1 ? ms.toFixed(3) : ms.toFixed(2));

function targetsTable(checks: TargetCheck[]): string {
  return markdownTable(
    ['target', 'db', 'measured', 'result'],
    checks.map((c) => [c.target, c.db, c.actual, c.pass ? 'PASS' : 'MISS']),
  );
}

function machine(pgVersion: string | undefined): string[] {
  const cpus = os.cpus();
  const pglite = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version as string;
  return [
    `- CPU: ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}); RAM ${Math.round(os.totalmem() / 2 ** 30)} GiB; ${os.type()} ${os.release()}`,
    `- Node.js ${process.version}; PGlite ${pglite}${pgVersion ? `; PostgreSQL ${pgVersion} (local, ${PG_TRANSPORT})` : ''}`,
    `- load generator (autocannon) and server share the machine: each run is ${settings.connections} connections, ` +
      `${settings.warmup}s unmeasured warm-up, then ${settings.duration}s measured`,
  ];
}

function writeResults(body: { rows: Row[]; baseline: Measurement; checks: TargetCheck[]; sections: string[]; notes: string[]; pgVersion?: string }) {
  const date = new Date().toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  const md = [
    '# Benchmark results',
    '',
    'Generated by `npm run bench` (`bench/run.ts`); the file is rewritten on every run. Each run measures a bare',
    '`node:http` JSON server as the baseline, then the real server as `npm start` runs it (`scripts/start.ts`: Next.js',
    'loaded, `NODE_ENV=production`, the NODE_OPTIONS and MALLOC_ARENA_MAX of package.json\'s `start` script; with',
    '`BENCH_NO_NEXT=1` API only, `FR_NO_NEXT=1`; rate limits raised out of the way) on a fresh PGlite data directory and on a scratch',
    'PostgreSQL database (`fr_bench_<random>`, dropped afterwards). Figures are only comparable within one run',
    'and one machine; the ratio to the baseline is the portable number.',
    '',
    'Run: `npm run bench` — env `BENCH_DURATION` (seconds per case, default 10), `BENCH_WARMUP` (default 2),',
    '`BENCH_CONNECTIONS` (default 50), `BENCH_PG=0` to skip PostgreSQL, `BENCH_PG_URL` (admin URL),',
    '`BENCH_SCENARIOS=keys` to run a subset, `BENCH_DBS=postgres` (or `pglite`) for one database, `BENCH_SERVER_NODE_ARGS` for the server’s node flags (`--cpu-prof`), `BENCH_ORDERS_ROUNDS` (end-to-end order rounds, default 3), `BENCH_INTAKE_CASES` (intake cases, default `public,in-app,review`), `BENCH_KEEP_DB=1` to keep the scratch PostgreSQL database, `BENCH_NO_NEXT=1` for the API-only server. Scenarios live in `bench/scenarios/`.',
    '',
    `## Run of ${date}`,
    '',
    ...machine(body.pgVersion),
    '',
    resultsTable(body.rows, body.baseline),
    '',
    'req/s = completed responses / measured seconds; p50/p99 = response latency; peak RSS = the measured',
    'process, sampled from /proc every 200 ms during the measured run; vs baseline = req/s ÷ baseline req/s;',
    'CPU ms/req = CPU time (user + system, from /proc) per response during the measured run, of the server, of',
    'all PostgreSQL processes and of the load generator (this process): unlike req/s, it hardly depends on how',
    'the cores were shared out, and the three together are what one request costs the machine.',
    '',
    ...body.sections.flatMap((s) => [s, '']),
    '### Targets',
    '',
    targetsTable(body.checks),
    ...(body.notes.length ? ['', '### Notes', '', ...body.notes.map((n) => `- ${n}`)] : []),
    '',
  ].join('\n');
  fs.writeFileSync(RESULTS_FILE, md);
}

async function main() {
  installExitHandlers();
  const selected = selectedScenarios();
  const notes: string[] = [];
  const rows: Row[] = [];
  const checks: TargetCheck[] = [];
  const sections: string[] = [];

  // 1. Baseline.
  const base = await startBaseline();
  const baseline = await measure(target(base, '—'), { name: 'baseline: bare node:http JSON', method: 'GET', path: '/' });
  rows.push({ scenario: 'baseline', m: baseline });
  await base.child.stop();

  // 2. Databases, one server at a time so they never compete for the CPU.
  const databases: Array<{ db: DbKind; url?: string; drop?: () => Promise<void> }> = [{ db: 'pglite' }];
  const scratch = await createScratchDatabase();
  let pgVersion: string | undefined;
  if ('skipped' in scratch) {
    const note = `PostgreSQL skipped: ${scratch.skipped}`;
    log(note);
    notes.push(note);
  } else {
    pgVersion = scratch.serverVersion;
    databases.push({ db: 'postgres', url: scratch.url, drop: scratch.drop });
  }

  // BENCH_DBS=postgres (or pglite) runs one database only, for a quicker look at one engine.
  const onlyDbs = process.env.BENCH_DBS?.split(',').map((s) => s.trim()).filter(Boolean);
  for (const { db, url, drop } of databases) {
    if (onlyDbs && !onlyDbs.includes(db)) {
      await drop?.();
      continue;
    }
    log(`starting server on ${db}`);
    const server = await startServer(db, url);
    log(`server on ${db} healthy after ${server.startupMs} ms (pid ${server.pid})`);
    // Next.js preloads its pages just after it starts listening; the idle figure is taken once that has settled.
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
    const idle = rssMb(server.pid);
    notes.push(
      `${db}: server (${WITH_NEXT ? 'as npm start runs it, Next.js loaded' : 'API only, FR_NO_NEXT=1'}) healthy ${(server.startupMs / 1000).toFixed(1)} s after spawn (migrations included); idle RSS ${fmt.mb(idle)} MB`,
    );
    await runDatabase(db, server, selected, baseline, rows, checks, sections, idle);
    await server.child.stop();
    await drop?.();
  }

  // 3. Report.
  const table = resultsTable(rows, baseline);
  process.stdout.write(`\n${table}\n\n${sections.map((s) => `${s}\n\n`).join('')}${targetsTable(checks)}\n\n`);
  const missed = checks.filter((c) => !c.pass).length;
  process.stdout.write(`${checks.length - missed}/${checks.length} targets met${missed ? ` (${missed} MISS)` : ''}\n`);
  writeResults({ rows, baseline, checks, sections, notes, pgVersion });
  log(`wrote ${path.relative(ROOT, RESULTS_FILE)}`);
}

main().then(
  () => cleanup(),
  async (err) => {
    process.stderr.write(`\n[bench] FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
    if (!(err instanceof BenchError) && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    await cleanup();
    process.exit(1);
  },
);
