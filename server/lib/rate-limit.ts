import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { metrics } from './metrics';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export interface RateLimiter {
  consume(key: string, livemode: boolean): Promise<RateDecision>;
}

export interface RateLimitOptions {
  livePerSecond: number;
  sandboxPerSecond: number;
  redis?: Redis;
  prefix?: string;
  /** The `limiter` label of fr_rate_limit_refusals_total (default `api`). */
  name?: string;
}

export type MakeLimiter = (keyPrefix: string, points: number, durationSeconds: number) => RateLimiterAbstract;

/**
 * Counters in Redis when there is one (shared by every process); while Redis is unreachable each process
 * keeps limiting on its own (the memory insurance) rather than failing requests.
 */
export const limiterFactory =
  (redis?: Redis): MakeLimiter =>
  (keyPrefix, points, duration) =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration, insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }) })
      : new RateLimiterMemory({ keyPrefix, points, duration });

/**
 * Per-credential limits, sandbox and live counted apart (DESIGN decision 4): a steady rate per second
 * plus a burst allowance of the same size again, refilled over ten seconds.
 */
export function createRateLimiter(opts: RateLimitOptions): RateLimiter {
  const makeLimiter = limiterFactory(opts.redis);
  const make = (points: number, duration: number, name: string) => makeLimiter(`${opts.prefix ?? 'fr-rl'}:${name}`, points, duration);
  const limiters = {
    live: new BurstyRateLimiter(make(opts.livePerSecond, 1, 'live'), make(opts.livePerSecond, 10, 'live-burst')),
    sandbox: new BurstyRateLimiter(make(opts.sandboxPerSecond, 1, 'sandbox'), make(opts.sandboxPerSecond, 10, 'sandbox-burst')),
  };
  return {
    async consume(key, livemode) {
      const limit = livemode ? opts.livePerSecond : opts.sandboxPerSecond;
      try {
        const res = await (livemode ? limiters.live : limiters.sandbox).consume(key);
        return { allowed: true, limit, remaining: Math.max(0, res.remainingPoints), resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          metrics().rateLimitRefusals.inc({ limiter: opts.name ?? 'api', mode: livemode ? 'live' : 'sandbox' });
          return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
        }
        throw rejection;
      }
    },
  };
}
