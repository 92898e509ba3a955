import { randomUUID } from 'node:crypto';
import { fmt, markdownTable, measure, settings, type LoadSpec, type Measurement } from '../lib';
import { startKeysFloor, WITH_NEXT } from '../servers';
import { serverDatabaseUrl } from './orders';
import type { Scenario, ScenarioContext, TargetCheck } from './types';

/** Issue 35, item 4: the authenticated API with Next.js loaded, on PostgreSQL. */
const LIST_RATIO_TARGET = 0.08;
const LIST_P99_TARGET_MS = 20;
const LOADED_RSS_TARGET_MB = 300;
/** PGlite's idle figure (569 MB when issue 35 was filed): the reasoning is in docs/decisions/performance.md ("Keys scenario targets and the PGlite idle RSS target"). */
const PGLITE_IDLE_RSS_TARGET_MB = 600;

export const KEYS_LIST = 'keys: GET /v1/developer/keys';
export const KEYS_CREATE = 'keys: POST /v1/developer/keys (Idempotency-Key)';

/**
 * API keys: the authenticated read every integration starts with, and an idempotent create (a fresh
 * Idempotency-Key per request, so every request claims, writes and completes a key). The list grows during
 * the create run, so the read is measured first.
 */
export const keysScenario: Scenario = {
  id: 'keys',

  async run(ctx) {
    const { key } = await ctx.newTenant('Bench clinic (keys)');
    const auth = { authorization: `Bearer ${key}` };

    const listSpec: LoadSpec = { name: KEYS_LIST, method: 'GET', path: '/v1/developer/keys', headers: auth };
    const project = await ctx.measure(listSpec);
    await compareWithFloors(ctx, project, listSpec, key);

    let n = 0;
    await ctx.measure({
      name: KEYS_CREATE,
      method: 'POST',
      path: '/v1/developer/keys',
      headers: auth,
      body: JSON.stringify({ name: 'bench' }),
      perRequest: (req) => ({
        ...req,
        headers: { ...req.headers, 'idempotency-key': randomUUID() },
        body: JSON.stringify({ name: `bench ${++n}` }),
      }),
    });
  },

  targets({ db, results, baseline, idleRssMb }) {
    const list = results.get(KEYS_LIST);
    const create = results.get(KEYS_CREATE);
    const checks: TargetCheck[] = [];
    const loaded = WITH_NEXT ? 'Next.js loaded' : 'API only (BENCH_NO_NEXT=1: not the target’s condition)';
    if (list) {
      const ratio = list.reqPerSec / baseline.reqPerSec;
      const p99 = db === 'postgres' ? LIST_P99_TARGET_MS : 30;
      checks.push({ target: `authenticated read ≥ ${fmt.pct(LIST_RATIO_TARGET)} of bare node:http req/s (${loaded})`, db, actual: fmt.pct(ratio), pass: ratio >= LIST_RATIO_TARGET });
      checks.push({ target: `read p99 ≤ ${p99} ms at ${settings.connections} connections`, db, actual: `${fmt.ms(list.p99)} ms`, pass: list.p99 <= p99 });
      if (db === 'postgres') {
        checks.push({ target: `server RSS ≤ ${LOADED_RSS_TARGET_MB} MB under the read's load`, db, actual: `${fmt.mb(list.peakRssMb)} MB peak`, pass: list.peakRssMb !== null && list.peakRssMb <= LOADED_RSS_TARGET_MB });
      }
    }
    if (db === 'pglite') {
      checks.push({
        target: `PGlite: idle server RSS ≤ ${PGLITE_IDLE_RSS_TARGET_MB} MB (${loaded}; docs/decisions/performance.md)`,
        db,
        actual: idleRssMb === null ? 'unknown' : `${fmt.mb(idleRssMb)} MB`,
        pass: idleRssMb !== null && idleRssMb <= PGLITE_IDLE_RSS_TARGET_MB,
      });
    }
    if (list && create) {
      const limit = 2 * list.p99;
      checks.push({
        target: 'idempotent create p99 ≤ 2× read p99',
        db,
        actual: `${fmt.ms(create.p99)} ms vs ${fmt.ms(limit)} ms`,
        pass: create.p99 <= limit,
      });
    }
    return checks;
  },
};

/**
 * The read against its floors on the same database, right after the project's own measurement (issue 35,
 * item 4): bare node:http + pg running the same statement, and the settled stack alone (tRPC, zod,
 * drizzle, pg) serving it (bench/keys-floor-server.ts). The differences say where the project's CPU per read
 * goes: the database read, the stack, the project's own request path. PostgreSQL only.
 */
async function compareWithFloors(ctx: ScenarioContext, project: Measurement, spec: LoadSpec, key: string) {
  const url = serverDatabaseUrl(ctx.server.pid);
  if (!url) return;
  const floors: Measurement[] = [];
  for (const floor of ['sql', 'stack'] as const) {
    const server = await startKeysFloor(url, floor, key);
    try {
      floors.push(await measure({ baseUrl: server.baseUrl, pid: server.pid, db: ctx.db, exited: server.child.exited }, { ...spec, name: `${floor} floor` }));
    } finally {
      await server.child.stop();
    }
  }
  const [sqlFloor, stackFloor] = floors;
  const cpu = (m: Measurement) => m.cpuMs.server ?? Number.NaN;
  const row = (name: string, m: Measurement) => [name, fmt.int(m.reqPerSec), fmt.ms(m.p50), fmt.ms(m.p99), cpu(m).toFixed(3), m.cpuMs.postgres?.toFixed(3) ?? '—', fmt.mb(m.peakRssMb)];
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  ctx.section(
    'The keys read against its floors (postgres)',
    markdownTable(
      ['server', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/read: server', 'PostgreSQL', 'peak RSS MB'],
      [row(WITH_NEXT ? 'project (Next.js loaded)' : 'project (API only)', project), row('node:http + pg, the same statement', sqlFloor), row('tRPC + zod + drizzle + pg alone', stackFloor)],
      [false, true, true, true, true, true, true],
    ) +
      `\n\nServer CPU per read: the same statement on bare node:http + pg costs ${ms(cpu(sqlFloor))}; the settled stack adds ${ms(cpu(stackFloor) - cpu(sqlFloor))} ` +
      `(one tRPC middleware level resolving the key, the project's input and output schemas, drizzle's prepared statement); the project's own request path adds ${ms(cpu(project) - cpu(stackFloor))} ` +
      `(route table, headers, request id, metrics, scoped data access, idempotency and scope checks, the envelope). Bare node:http answered ${fmt.int(ctx.baseline.reqPerSec)} req/s in this run; ` +
      `the floors reach ${fmt.pct(sqlFloor.reqPerSec / ctx.baseline.reqPerSec)} and ${fmt.pct(stackFloor.reqPerSec / ctx.baseline.reqPerSec)} of it. ` +
      `Measured one after the other with the same key, ${settings.connections} connections, ${settings.duration} s each after ${settings.warmup} s unmeasured (bench/keys-floor-server.ts).`,
  );
}
