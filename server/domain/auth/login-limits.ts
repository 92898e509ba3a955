import { RateLimiterRes } from 'rate-limiter-flexible';
import type { MakeLimiter } from '@/server/lib/rate-limit';
import { refuseWhenExhausted } from './limiters';

/** Failed passwords one IP may spend on one account, and on all accounts together, per 15 minutes. */
const PAIR_FAILURES = 10;
const IP_FAILURES = 50;
/** Failures an account absorbs (from anywhere, per hour) before sign-ins from unknown networks are spaced out. */
export const FREE_ACCOUNT_FAILURES = 5;
const ACCOUNT_WINDOW_S = 3600;
export const MAX_DELAY_S = 60;

/** 1 s after the free failures, doubling with each further one, never more than a minute. */
const delaySeconds = (failures: number) => Math.min(2 ** (failures - FREE_ACCOUNT_FAILURES), MAX_DELAY_S);

export interface LoginLimits {
  /**
   * Before a password is checked: refuses (429) an IP that has spent its failures on this account or on all
   * accounts, and, while the account is under attack, spaces attempts from networks it never signed in from.
   */
  admit(account: string, ip: string, knownSource: boolean): Promise<void>;
  /** Records a wrong password; true once per hour per account, when it is time to tell the owner. */
  failed(account: string): Promise<boolean>;
  /** A right password gives back what this attempt reserved. */
  succeeded(account: string, ip: string): Promise<void>;
}

/**
 * Failures are limited per (account, IP) first, so an attacker exhausts only their own pair and address. The
 * per-account count never refuses the right password outright: it makes each attempt from an unknown network
 * claim the account's single slot, held for an exponentially growing (capped) delay, so a botnet gets one
 * guess per delay while the owner's known networks are not slowed at all. Points are taken before the
 * password is checked, so concurrent guesses cannot all slip through one check.
 */
export function createLoginLimits(make: MakeLimiter): LoginLimits {
  const pair = make('fr-auth:login:pair', PAIR_FAILURES, 900);
  const perIp = make('fr-auth:login:ip', IP_FAILURES, 900);
  const accountFailures = make('fr-auth:login:acct', Number.MAX_SAFE_INTEGER, ACCOUNT_WINDOW_S);
  const slot = make('fr-auth:login:slot', 1, MAX_DELAY_S);
  const alerts = make('fr-auth:login:alert', 1, ACCOUNT_WINDOW_S);
  const pairKey = (account: string, ip: string) => `${account}|${ip}`;

  return {
    admit: (account, ip, knownSource) =>
      refuseWhenExhausted(async () => {
        if (!knownSource) {
          const counted = await accountFailures.get(account);
          const failures = counted && counted.msBeforeNext > 0 ? counted.consumedPoints : 0;
          if (failures >= FREE_ACCOUNT_FAILURES) await slot.consume(account, 1, { customDuration: delaySeconds(failures) });
        }
        await pair.consume(pairKey(account, ip));
        await perIp.consume(ip);
      }),
    async failed(account) {
      const counted = await accountFailures.consume(account);
      if (counted.consumedPoints < FREE_ACCOUNT_FAILURES) return false;
      return alerts.consume(account).then(
        () => true,
        (e: unknown) => {
          if (e instanceof RateLimiterRes) return false;
          throw e;
        },
      );
    },
    async succeeded(account, ip) {
      await pair.delete(pairKey(account, ip));
      await perIp.reward(ip);
    },
  };
}
