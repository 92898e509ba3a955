import { randomUUID } from 'node:crypto';
import { fmt, settings } from '../lib';
import type { Scenario, TargetCheck } from './types';

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

    await ctx.measure({ name: KEYS_LIST, method: 'GET', path: '/v1/developer/keys', headers: auth });

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

  targets({ db, results, baseline }) {
    const list = results.get(KEYS_LIST);
    const create = results.get(KEYS_CREATE);
    const checks: TargetCheck[] = [];
    if (list) {
      const ratio = list.reqPerSec / baseline.reqPerSec;
      checks.push({ target: 'authenticated read ≥ 5% of baseline req/s', db, actual: fmt.pct(ratio), pass: ratio >= 0.05 });
      checks.push({ target: `read p99 ≤ 30 ms at ${settings.connections} connections`, db, actual: `${fmt.ms(list.p99)} ms`, pass: list.p99 <= 30 });
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
