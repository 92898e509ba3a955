import type { MakeLimiter } from '@/server/lib/rate-limit';
import { refuseWhenExhausted } from '@/server/domain/auth/limiters';

/**
 * Brute-force limits of the patient portal's sign-in (DESIGN decision 39), per 15 minutes:
 * - a code request sends a mail, so 5 per e-mail address and 20 per client address;
 * - a code check: 10 per e-mail address and 30 per client address, on top of the 5 tries each code allows.
 * The e-mail is counted as its keyed hash, the same whether or not a patient has it, so a refusal tells nothing.
 */
const WINDOW_S = 900;
const LIMITS = { request: { account: 5, address: 20 }, verify: { account: 10, address: 30 } } as const;

export type PatientLoginStep = keyof typeof LIMITS;

export interface PatientLoginLimits {
  /** Counts one attempt against the e-mail (when given) and the client address; 429 with Retry-After once either is spent. */
  consume(step: PatientLoginStep, emailKey: string | null, address: string): Promise<void>;
}

export function createPatientLoginLimits(make: MakeLimiter): PatientLoginLimits {
  const limiters = {
    request: { account: make('fr-patient:request:acct', LIMITS.request.account, WINDOW_S), address: make('fr-patient:request:ip', LIMITS.request.address, WINDOW_S) },
    verify: { account: make('fr-patient:verify:acct', LIMITS.verify.account, WINDOW_S), address: make('fr-patient:verify:ip', LIMITS.verify.address, WINDOW_S) },
  };
  return {
    consume: (step, emailKey, address) =>
      refuseWhenExhausted(async () => {
        await limiters[step].address.consume(address);
        if (emailKey) await limiters[step].account.consume(emailKey);
      }),
  };
}
