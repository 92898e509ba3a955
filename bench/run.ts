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
import { QUIET_BASELINE_RPS, runDate, updateResults, type ScenarioReport } from './results-file';
import { scenarios } from './scenarios';
import type { Scenario, TargetCheck } from './scenarios/types';
import { createScratchDatabase, PG_TRANSPORT, startBaseline, startServer, WITH_NEXT, type DbKind, type RunningServer } from './servers';

// The server's peak under the bench's load: 400 MB on PostgreSQL; the embedded database's server also holds
// PGlite's WebAssembly instance and its heap, and issue 55 (item 4) set it 450 MB.
const RSS_LIMIT_MB: Record<DbKind, number> = { postgres: 400, pglite: 450 };
const IDLE_SETTLE_MS = 3000;
const RESULTS_FILE = path.resolve(ROOT, process.env.BENCH_RESULTS || 'bench/RESULTS.md');

interface Row {
  scenario: string;
  m: Measurement;
}
/** A markdown section or a target, with the scenario that produced it (the results file has one section per scenario). */
type Tagged<T> = T & { scenario: string };
type Section = Tagged<{ text: string }>;

function selectedScenarios(): Scenario[] {
  const wanted = process.env.BENCH_SCENARIOS?.split(',').map((s) => s.trim()).filter(Boolean);
  if (!wanted?.length) return scenarios;
  const unknown = wanted.filter((id) => !scenarios.some((s) => s.id === id));
  if (unknown.length) throw new BenchError(`unknown scenario(s) ${unknown.join(', ')}; known: ${scenarios.map((s) => s.id).join(', ')}`);
  return scenarios.filter((s) => wanted.includes(s.id));
}

function target(server: RunningServer, db: string): Target {
  return { baseUrl: server.baseUrl, pid: server.pid, db, exited: server.child.exited, runtimeMetrics: server.runtimeMetrics };
}

async function runDatabase(db: DbKind, server: RunningServer, selected: Scenario[], baseline: Measurement, rows: Row[], checks: Tagged<TargetCheck>[], sections: Section[], idleRssMb: number | null) {
  let tenants = 0;
  for (const scenario of selected) {
    const results = new Map<string, Measurement>();
    await scenario.run({
      db,
      server,
      baseline,
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
        sections.push({ scenario: scenario.id, text: `### ${title}\n\n${markdown}` });
      },
    });
    checks.push(...(scenario.targets?.({ db, results, baseline, idleRssMb }) ?? []).map((c) => ({ ...c, scenario: scenario.id })));
  }
  const dbRows = rows.filter((r) => r.m.db === db);
  for (const scenario of selected) {
    const peaks = dbRows.filter((r) => r.scenario === scenario.id).map((r) => r.m.peakRssMb).filter((v): v is number => v !== null);
    if (!peaks.length) continue;
    const peak = Math.max(...peaks);
    const limit = RSS_LIMIT_MB[db];
    checks.push({ scenario: scenario.id, target: `server peak RSS ≤ ${limit} MB`, db, actual: `${fmt.mb(peak)} MB`, pass: peak <= limit });
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

/**
 * Issue 55 item 2: for each case, what the server's runtime did during the run (bench/runtime-metrics.ts), so a
 * tail can be told apart: GC pauses, a long synchronous task (the event loop's maximum delay), a pool queue.
 * The lock sampler (waits on locks in PostgreSQL) is in the flows scenario's own section.
 */
function runtimeTable(rows: Row[]): string[] {
  const measured = rows.filter(({ m }) => m.runtime);
  if (!measured.length) return [];
  const ms = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v < 10 ? v.toFixed(1) : fmt.int(v));
  const table = markdownTable(
    ['case', 'db', 'p99 ms', 'GC ms/s: minor', 'major', 'incremental', 'GC pauses', '≥ 10 ms', 'loop delay p99 ms', 'max ms', 'pool waiting: max', 'mean'],
    measured.map(({ m }) => {
      const r = m.runtime!;
      const perS = (kind: string) => ms((r.gcMs[kind] ?? 0) / m.durationS);
      return [m.name, m.db, fmt.ms(m.p99), perS('minor'), perS('major'), perS('incremental'), fmt.int(r.gcCount), fmt.int(r.gcPausesOver10ms), ms(r.loopDelayP99Ms), ms(r.loopDelayMaxMs), r.poolWaitingMax === null ? '—' : fmt.int(r.poolWaitingMax), r.poolWaitingMean === null ? '—' : r.poolWaitingMean.toFixed(1)];
    }),
    [false, false, true, true, true, true, true, true, true, true, true, true],
  );
  return ['Where the time of each case went in the server (its /metrics during the run: GC by kind, the event loop\'s delay, callers queued for a PostgreSQL connection, sampled every 250 ms):', '', table, ''];
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

/** Each scenario's section of bench/RESULTS.md: the conditions, its rows beside the baseline, its figures, its targets. */
function writeResults(body: { selected: Scenario[]; rows: Row[]; baseline: Measurement; checks: Tagged<TargetCheck>[]; sections: Section[]; notes: string[]; pgVersion?: string; load: { start: string; end: string } }) {
  const date = runDate();
  const kept = body.baseline.reqPerSec >= QUIET_BASELINE_RPS / 2;
  const conditions = [
    ...machine(body.pgVersion),
    `- load average at start ${body.load.start}, at end ${body.load.end}; baseline (bare node:http JSON) ${fmt.int(body.baseline.reqPerSec)} req/s` +
      (kept ? ` (quiet figure ${fmt.int(QUIET_BASELINE_RPS)})` : ` — below half the quiet figure (${fmt.int(QUIET_BASELINE_RPS)}): not kept`),
    ...body.notes.map((n) => `- ${n}`),
  ];
  const reports: ScenarioReport[] = body.selected.map((scenario) => {
    const rows = body.rows.filter((r) => r.scenario === scenario.id);
    const checks = body.checks.filter((c) => c.scenario === scenario.id).map(({ scenario: _, ...c }) => c);
    const text = [
      ...conditions,
      '',
      '### Targets',
      '',
      targetsTable(checks),
      '',
      resultsTable([{ scenario: 'baseline', m: body.baseline }, ...rows], body.baseline),
      '',
      ...runtimeTable(rows),
      ...body.sections.filter((s) => s.scenario === scenario.id).flatMap((s) => [s.text, '']),
    ].join('\n');
    return { id: scenario.id, body: text, checks, kept, date };
  });
  updateResults(RESULTS_FILE, reports, scenarios.map((s) => s.id));
}

async function main() {
  installExitHandlers();
  const selected = selectedScenarios();
  const notes: string[] = [];
  const rows: Row[] = [];
  const checks: Tagged<TargetCheck>[] = [];
  const sections: Section[] = [];
  const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
  const loadAtStart = loadAverage();

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
  process.stdout.write(`\n${table}\n\n${sections.map((s) => `${s.text}\n\n`).join('')}${targetsTable(checks)}\n\n`);
  const missed = checks.filter((c) => !c.pass).length;
  process.stdout.write(`${checks.length - missed}/${checks.length} targets met${missed ? ` (${missed} MISS)` : ''}\n`);
  writeResults({ selected, rows, baseline, checks, sections, notes, pgVersion, load: { start: loadAtStart, end: loadAverage() } });
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
