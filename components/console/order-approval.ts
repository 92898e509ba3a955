import type { ConsoleMe } from '@/lib/console/types';

/**
 * Why the signed-in person cannot approve an order for a patient in `patientState`, or null when they can.
 * The same checks, in the same order, as POST /v1/orders/{id}/approve makes (requireProvider, then the
 * license for the patient's shipping state); the API stays the authority, and its refusal is still shown.
 * `patientState` undefined means "not known to this page" (the state check is then left to the API).
 */
export function approvalBlock(me: ConsoleMe, patientState: string | null | undefined): string | null {
  const u = me.user;
  if (u.role !== 'provider') return 'Only a licensed provider can approve orders.';
  if (!u.provider?.npi || !u.provider.npiVerifiedAt) return 'Your NPI has not been verified yet.';
  if (!u.mfaEnabled) return 'Enable two-factor authentication to approve.';
  if (patientState === null) return 'The patient has no shipping address, so the license cannot be checked.';
  if (patientState !== undefined && !u.provider.licensedStates.includes(patientState)) return `Not licensed in ${patientState}.`;
  return null;
}

