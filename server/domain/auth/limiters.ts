import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { errors } from '@/server/lib/errors';

export type MakeLimiter = (keyPrefix: string, points: number, durationSeconds: number) => RateLimiterAbstract;

/** Counters in Redis when there is one (shared by every process), with memory as insurance while it is down. */
export const limiterFactory =
  (redis?: Redis): MakeLimiter =>
  (keyPrefix, points, duration) =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration, insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }) })
      : new RateLimiterMemory({ keyPrefix, points, duration });

/** Turns an exhausted limiter into the API's 429 with Retry-After. */
export async function refuseWhenExhausted(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (e) {
    if (e instanceof RateLimiterRes) throw errors.rateLimited(Math.max(1, Math.ceil(e.msBeforeNext / 1000)));
    throw e;
  }
}
