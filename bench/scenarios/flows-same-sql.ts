import { runShape } from '../same-sql/statements';
import { fmt, log, markdownTable, settings } from '../lib';
import { startFlowsStackFloor, startSameSqlReference } from '../servers';
import { serverDatabaseUrl } from './orders';
import type { TargetCheck } from './types';
import type { RunFigures, World } from './flows';

/** Issue 35, item 2: the project against the same SQL on bare node:http + pg, in the same run. */
const RUNS_RATIO_TARGET = 0.75;
const SERVER_CPU_RATIO_TARGET = 1.5;
const POSTGRES_CPU_RATIO_TARGET = 1.1;
/** Alternating rounds (project, reference, …); each side's median is compared, so a drift of the machine between rounds weighs less. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_SAME_SQL_ROUNDS ?? 3));

export interface SameSqlFigures {
  project: RunFigures[];
  reference: RunFigures[];
  /** The same runtime on the settled stack alone (bench/flows-stack-floor-server.ts): a figure, not a target. */
  stack: RunFigures[];
}

type Measure = (server: { baseUrl: string; pid: number }, label: string) => Promise<RunFigures>;

/**
 * Rounds of complete runs alternating between the project, the reference and the stack floor, started on the
 * same database; null on PGlite (the reference speaks to PostgreSQL). The scenario's own measured round is not one of them:
 * it runs beside the lock-wait sampler, whose queries PostgreSQL's CPU figure would charge to the project.
 */
export async function compareWithSameSql(project: { baseUrl: string; pid: number }, measure: Measure): Promise<SameSqlFigures | null> {
  const url = serverDatabaseUrl(project.pid);
  if (!url) return null;
  const reference = await startSameSqlReference(url);
  const stack = await startFlowsStackFloor(url).catch(async (err: unknown) => {
    await reference.child.stop();
    throw err;
  });
  const out: SameSqlFigures = { project: [], reference: [], stack: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      out.project.push(await measure(project, `flows (round ${round + 1})`));
      out.reference.push(await measure(reference, `same-SQL reference (round ${round + 1})`));
      out.stack.push(await measure(stack, `flows stack floor (round ${round + 1})`));
    }
  } finally {
    await Promise.all([reference.child.stop(), stack.child.stop()]);
  }
  const m = medians(out);
  log(`postgres flows vs same SQL: ${fmt.int(m.project.runsPerSec)} against ${fmt.int(m.reference.runsPerSec)} runs/s, stack floor ${fmt.int(m.stack.runsPerSec)} (medians of ${ROUNDS})`);
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : Number.NaN;
};
const side = (rounds: RunFigures[]) => ({
  runsPerSec: median(rounds.map((r) => r.runsPerSec)),
  server: median(rounds.flatMap((r) => r.cpuMsPerRun.server ?? [])),
  postgres: median(rounds.flatMap((r) => r.cpuMsPerRun.postgres ?? [])),
  p99: median(rounds.map((r) => r.run.p99)),
});
const medians = (f: SameSqlFigures) => ({ project: side(f.project), reference: side(f.reference), stack: side(f.stack) });
const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : Number.NaN);

export function sameSqlTargets(f: SameSqlFigures, db: string): TargetCheck[] {
  const { project: p, reference: r } = medians(f);
  const runs = ratio(p.runsPerSec, r.runsPerSec);
  const server = ratio(p.server, r.server);
  const postgres = ratio(p.postgres, r.postgres);
  return [
    {
      target: `flows runs/s ≥ ${fmt.pct(RUNS_RATIO_TARGET)} of the same-SQL reference's (medians of ${f.reference.length} alternating rounds)`,
      db,
      actual: `${fmt.pct(runs)} (${fmt.int(p.runsPerSec)} against ${fmt.int(r.runsPerSec)}/s; run p99 ${fmt.ms(p.p99)} against ${fmt.ms(r.p99)} ms)`,
      pass: runs >= RUNS_RATIO_TARGET,
    },
    {
      target: `flows server CPU per run ≤ ${SERVER_CPU_RATIO_TARGET}× the same-SQL reference's`,
      db,
      actual: `${server.toFixed(2)}× (${p.server.toFixed(1)} against ${r.server.toFixed(1)} ms)`,
      pass: server <= SERVER_CPU_RATIO_TARGET,
    },
    {
      target: `flows PostgreSQL CPU per run ≤ ${POSTGRES_CPU_RATIO_TARGET}× the same-SQL reference's`,
      db,
      actual: `${postgres.toFixed(2)}× (${p.postgres.toFixed(1)} against ${r.postgres.toFixed(1)} ms)`,
      pass: postgres <= POSTGRES_CPU_RATIO_TARGET,
    },
  ];
}

export function sameSqlSection(f: SameSqlFigures, w: Pick<World, 'embed'>): string {
  const shape = runShape();
  const row = (name: string, r: RunFigures) => [name, fmt.int(r.runsPerSec), fmt.ms(r.run.p50), fmt.ms(r.run.p99), r.cpuMsPerRun.server?.toFixed(2) ?? '—', r.cpuMsPerRun.postgres?.toFixed(2) ?? '—', fmt.mb(r.peakRssMb)];
  const rows = f.project.flatMap((p, i) => [
    row(`project, round ${i + 1}`, p),
    ...(f.reference[i] ? [row(`same-SQL reference, round ${i + 1}`, f.reference[i])] : []),
    ...(f.stack[i] ? [row(`stack floor, round ${i + 1}`, f.stack[i])] : []),
  ]);
  const m = medians(f);
  const share = (s: ReturnType<typeof side>) => `${fmt.pct(ratio(s.runsPerSec, m.reference.runsPerSec))} of its runs/s, ${ratio(s.server, m.reference.server).toFixed(2)}× its server CPU per run`;
  return (
    markdownTable(['server', 'runs/s', 'run p50 ms', 'run p99 ms', 'CPU ms/run: server', 'PostgreSQL', 'peak RSS MB'], rows, [false, true, true, true, true, true, true]) +
    `\n\nAgainst the same-SQL reference (medians): the stack floor ${share(m.stack)}; the project ${share(m.project)}.` +
    `\n\nThe same-SQL reference (bench/same-sql-server.ts) is bare node:http + pg on the same database and embed key (${w.embed}), serving the three routes a run uses with the statements the project sends for it ` +
    `(bench/same-sql/statements.ts: ${shape.statements} statements, ${shape.commits} commits per run; tests/postgres/same-sql-statements.test.ts fails when the project's diverge), each a named prepared statement, in the same transactions, ` +
    `with the questionnaire engine on submit and an Ed25519 certificate, and no validation or framework. The stack floor (bench/flows-stack-floor-server.ts) is the same runtime (bench/same-sql/runtime.ts) on the settled stack alone: ` +
    `a tRPC procedure per route with the project's input and output schemas and one middleware level resolving the embed key, called through createCaller, each statement a named prepared query through drizzle and the submit in drizzle's transaction; ` +
    `no project code on the path (route table, headers, metrics, rate limits, origin checks, idempotency layer, events catalog, scoped data access). It is a figure, not a target. ` +
    `The same ${settings.connections} patients' closed loop drives all three, one at a time, in alternating rounds of ${settings.duration} s (each after ${settings.warmup} s unmeasured).`
  );
}
