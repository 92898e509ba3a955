import { RateLimiterRes } from 'rate-limiter-flexible';
import { errors } from '@/server/lib/errors';

/** Turns an exhausted limiter into the API's 429 with Retry-After. */
export async function refuseWhenExhausted(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (e) {
    if (e instanceof RateLimiterRes) throw errors.rateLimited(Math.max(1, Math.ceil(e.msBeforeNext / 1000)));
    throw e;
  }
}
