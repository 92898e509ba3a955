import { isBillingRefusal, patientSafeRefusal } from '@/server/domain/billing/enforcement';
import { middleware } from '../trpc';

/**
 * Patient-facing paths never reveal the clinic's account state (DESIGN decision 35): whatever refused the call
 * for billing, deep in any domain function, the public answer is the one generic `flow_unavailable`. The
 * clinic's console and authenticated API keep the precise code (`billing_suspended` …); this sits only on the
 * public procedure builders, outermost, so nothing a later middleware or procedure throws gets past it.
 */
export const patientSafeRefusals = middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isBillingRefusal(result.error.cause)) throw patientSafeRefusal();
  return result;
});
