import type { Redis } from 'ioredis';
import { limiterFactory } from '@/server/lib/rate-limit';
import { createPatientLoginLimits, type PatientLoginLimits } from '@/server/domain/patients/sign-in/login-limits';
import { refuseWhenExhausted } from './limiters';
import { createLoginLimits, type LoginLimits } from './login-limits';

export interface AttemptLimits {
  /** Counts one attempt against each key (account, then IP); throws 429 when any is exhausted. */
  consume(kind: 'magic' | 'mfa', keys: string[]): Promise<void>;
  /** Password sign-in: failures per (account, IP) and per IP, and a per-account slowdown (login-limits.ts). */
  login: LoginLimits;
  /** The patient portal's sign-in: code requests and code checks (server/domain/patients/sign-in/login-limits.ts). */
  patientLogin: PatientLoginLimits;
}

/**
 * Brute-force limits: password sign-in as in login-limits.ts; magic links 10 per account (each one is a mail)
 * and 50 per IP in 15 minutes; MFA codes 5 per account and 30 per IP in 5 minutes (only someone who already
 * has the password, or a session, reaches them).
 */
export function createAttemptLimits(redis?: Redis): AttemptLimits {
  const make = limiterFactory(redis);
  const limiters = {
    'magic:account': make('fr-auth:magic:acct', 10, 900),
    'magic:ip': make('fr-auth:magic:ip', 50, 900),
    'mfa:account': make('fr-auth:mfa:acct', 5, 300),
    'mfa:ip': make('fr-auth:mfa:ip', 30, 300),
  };
  return {
    consume: (kind, [account, ip]) =>
      refuseWhenExhausted(async () => {
        await limiters[`${kind}:account`].consume(account);
        if (ip) await limiters[`${kind}:ip`].consume(ip);
      }),
    login: createLoginLimits(make),
    patientLogin: createPatientLoginLimits(make),
  };
}
