import { afterAll, describe, expect, it } from 'vitest';
import { createTenantWithKeys, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

async function hammer(app: TestApp, key: string, n: number) {
  const statuses: number[] = [];
  let limited;
  for (let i = 0; i < n; i++) {
    const res = await app.request('GET', '/v1/developer/keys', { key });
    statuses.push(res.status);
    if (res.status === 429) limited ??= res;
  }
  return { statuses, limited };
}

// The Redis store needs a running Redis: `.ci/run` starts one and sets REDIS_URL; without it `npm test`
// reports these as skipped rather than failing on a machine that has no Redis.
const redisUrl = process.env.REDIS_URL;
const stores: [string, Record<string, string>, boolean][] = [
  ['memory', {}, true],
  ['redis', redisUrl ? { REDIS_URL: redisUrl } : {}, Boolean(redisUrl)],
];

describe.each(stores)('rate limits (%s store)', (_name, env, available) => {
  it.skipIf(!available)('limits per key with 429, Retry-After and RateLimit-* headers; modes are counted apart', async () => {
    const app = await startTestApp({ RATE_LIMIT_SANDBOX: '3', RATE_LIMIT_LIVE: '4', ...env });
    apps.push(app);
    const t = await createTenantWithKeys(app);
    const ok = await app.request('GET', '/v1/developer/keys', { key: t.sandboxKey });
    expect(ok.headers.get('ratelimit-limit')).toBe('3');
    expect(Number(ok.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0);

    const sandbox = await hammer(app, t.sandboxKey, 12);
    expect(sandbox.statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(6);
    expect(sandbox.limited).toBeDefined();
    expectEnvelope(sandbox.limited!, 429, 'rate_limit_error', 'rate_limited');
    expect(Number(sandbox.limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(sandbox.limited!.headers.get('ratelimit-remaining')).toBe('0');

    // The live key of the same tenant has its own budget.
    const live = await app.request('GET', '/v1/developer/keys', { key: t.liveKey });
    expect(live.status).toBe(200);
    expect(live.headers.get('ratelimit-limit')).toBe('4');

    if ('REDIS_URL' in env) {
      // The counters really live in Redis, so every instance of the service shares them.
      const { Redis } = await import('ioredis');
      const redis = new Redis(env.REDIS_URL as string);
      const keys = (await app.request('GET', '/v1/developer/keys', { key: t.liveKey })).body as { id: string; name: string }[];
      const sandboxKeyId = keys.find((k) => k.name === 'sandbox key')!.id;
      expect(await redis.keys(`fr-rl:sandbox:${sandboxKeyId}*`)).not.toHaveLength(0);
      redis.disconnect();
    }
  });
});
