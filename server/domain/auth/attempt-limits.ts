import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { errors } from '@/server/lib/errors';

export interface AttemptLimits {
  /** Counts one attempt against each key; throws 429 when any is exhausted. */
  consume(kind: 'login' | 'mfa', keys: string[]): Promise<void>;
}

/**
 * Brute-force limits on sign-in and MFA codes, per account and per IP: 10 login attempts per account
 * and 50 per IP in 15 minutes; 5 MFA codes per account in 5 minutes.
 */
export function createAttemptLimits(redis?: Redis): AttemptLimits {
  const make = (keyPrefix: string, points: number, duration: number): RateLimiterAbstract =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration, insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }) })
      : new RateLimiterMemory({ keyPrefix, points, duration });
  const limiters = {
    'login:account': make('fr-auth:login:acct', 10, 900),
    'login:ip': make('fr-auth:login:ip', 50, 900),
    'mfa:account': make('fr-auth:mfa:acct', 5, 300),
    'mfa:ip': make('fr-auth:mfa:ip', 30, 300),
  };
  return {
    async consume(kind, keys) {
      const [account, ip] = keys;
      try {
        await limiters[`${kind}:account`].consume(account);
        if (ip) await limiters[`${kind}:ip`].consume(ip);
      } catch (e) {
        if (e instanceof RateLimiterRes) throw errors.rateLimited(Math.max(1, Math.ceil(e.msBeforeNext / 1000)));
        throw e;
      }
    },
  };
}
