import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';

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
}

/**
 * Per-credential limits, sandbox and live counted apart (DESIGN decision 4): a steady rate per second
 * plus a burst allowance of the same size again, refilled over ten seconds.
 */
export function createRateLimiter(opts: RateLimitOptions): RateLimiter {
  const make = (points: number, duration: number, name: string): RateLimiterAbstract => {
    const keyPrefix = `${opts.prefix ?? 'fr-rl'}:${name}`;
    return opts.redis
      ? new RateLimiterRedis({
          storeClient: opts.redis,
          points,
          duration,
          keyPrefix,
          // While Redis is unreachable each process keeps limiting on its own rather than failing requests.
          insuranceLimiter: new RateLimiterMemory({ points, duration, keyPrefix }),
        })
      : new RateLimiterMemory({ points, duration, keyPrefix });
  };
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
          return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
        }
        throw rejection;
      }
    },
  };
}
