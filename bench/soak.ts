/**
 * `npm run soak`: two web processes and one worker on PostgreSQL + Redis under mixed load with faults (kill -9
 * of a web process and of the worker, Redis stopped and started, PostgreSQL restarted), then the invariant
 * table (bench/soak/invariants.ts). Exits 1 when an invariant fails. Env: SOAK_SECONDS (180), SOAK_FAULTS
 * (no-pg,no-redis,no-kill-web,no-kill-worker), SOAK_CLIENTS (4), SOAK_RATE_LIMIT (40/s, the live limit probed),
 * SOAK_REDIS_URL, SOAK_PG_RESTART_CMD, SOAK_REDIS_STOP_CMD / SOAK_REDIS_START_CMD, BENCH_PG_URL.
 */
import os from 'node:os';
import path from 'node:path';
import { cleanup, installExitHandlers, log, ROOT } from './lib';
import { runDate, updateResults } from './results-file';
import { scenarios } from './scenarios';
import { soak } from './soak/index';

installExitHandlers();
let code = 1;
const loadAtStart = os.loadavg().map((l) => l.toFixed(2)).join(' ');
try {
  log(`soak: load average ${loadAtStart} on ${os.cpus().length} cores`);
  const result = await soak();
  if ('skipped' in result) {
    log(result.skipped);
    code = 0;
  } else {
    process.stdout.write(`${result.markdown}\n`);
    code = result.pass ? 0 : 1;
    // Its section of bench/RESULTS.md (the soak has no baseline: its figures are invariants, not rates).
    const date = runDate();
    const checks = result.invariants.map((i) => ({ target: `soak: ${i.name}`, db: 'postgres', actual: i.actual, pass: i.pass }));
    updateResults(path.resolve(ROOT, process.env.BENCH_RESULTS || 'bench/RESULTS.md'), [{ id: 'soak', body: `- load average at start ${loadAtStart}\n\n${result.markdown}`, checks, kept: true, date }], scenarios.map((s) => s.id));
    if (!result.pass) log('soak: an invariant failed');
  }
} catch (err) {
  log(`soak failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
} finally {
  await cleanup();
}
process.exit(code);
