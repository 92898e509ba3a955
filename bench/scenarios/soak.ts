import { soak } from '../soak/index';
import type { Scenario } from './types';

/**
 * BENCH_SCENARIOS=soak (named explicitly; a run of every scenario leaves it out): the soak of `npm run soak` (bench/soak.ts), once per bench run, on the PostgreSQL pass
 * (it starts its own processes and database; the pass's server only stands by). Its invariants are targets.
 */
let ran = false;
let checks: { target: string; actual: string; pass: boolean }[] = [];

export const soakScenario: Scenario = {
  id: 'soak',
  async run(ctx) {
    if (ctx.db !== 'postgres' || ran) return;
    ran = true;
    // Minutes long, and it restarts PostgreSQL and stops Redis: never part of a plain `npm run bench`.
    if (!process.env.BENCH_SCENARIOS?.split(',').some((s) => s.trim() === 'soak')) return;
    const result = await soak();
    if ('skipped' in result) return ctx.section('Soak', `Skipped: ${result.skipped}`);
    ctx.section('Soak (two web processes, one worker, faults)', result.markdown);
    checks = result.invariants.map((i) => ({ target: `soak: ${i.name}`, actual: i.actual, pass: i.pass }));
  },
  targets({ db }) {
    return db === 'postgres' ? checks.map((c) => ({ ...c, db })) : [];
  },
};
