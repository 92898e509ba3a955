import { errors } from '@/server/lib/errors';
import type { RateDecision } from '@/server/lib/rate-limit';
import type { RequestState } from '../context';

/** Puts the decision's `RateLimit-*` headers on the response; 429 with `Retry-After` when it is spent. */
export function enforceRateDecision(state: RequestState, decision: RateDecision): void {
  Object.assign(state.headers, {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  });
  if (!decision.allowed) throw errors.rateLimited(decision.resetSeconds);
}
