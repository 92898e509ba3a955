import { isBillingRefusal, patientSafeRefusal } from '@/server/domain/billing/enforcement';

/**
 * Patient-facing paths never reveal the clinic's account state (DESIGN decision 35): whatever refused the call
 * for billing, deep in any domain function, the public answer is the one generic `flow_unavailable`. The
 * clinic's console and authenticated API keep the precise code (`billing_suspended` …); this sits only in the
 * public procedure builders' outermost middleware (server/api/procedures.ts), so nothing a later middleware
 * or procedure throws gets past it.
 */
export function patientSafeOutcome<R extends { ok: boolean; error?: { cause?: unknown } }>(result: R): R {
  if (!result.ok && isBillingRefusal(result.error?.cause)) throw patientSafeRefusal();
  return result;
}
