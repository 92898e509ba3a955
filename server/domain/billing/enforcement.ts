import type { Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { AppError } from '@/server/lib/errors';
import type { DunningStage } from '@/db/schema/billing';
import { readAccount } from './accounts';
import { decisionFor, effectiveStage, type BillingDecision } from './stages';

/** What a clinic that stopped paying loses, and from which decision on (DESIGN decision 29). */
export type BillingGuardedAction = 'ai_generation' | 'new_experiment' | 'new_approval' | 'new_flow_session' | 'order_create';

const RANK: Record<BillingDecision, number> = { ROUTE: 0, DEGRADE: 1, SOFT_BLOCK: 2, BLOCK: 3 };

const REFUSED_FROM: Record<BillingGuardedAction, BillingDecision> = {
  ai_generation: 'DEGRADE',
  new_experiment: 'DEGRADE',
  new_approval: 'SOFT_BLOCK',
  new_flow_session: 'SOFT_BLOCK',
  order_create: 'BLOCK',
};

const CODES: Record<Exclude<BillingDecision, 'ROUTE'>, string> = {
  DEGRADE: 'billing_degraded',
  SOFT_BLOCK: 'billing_restricted',
  BLOCK: 'billing_suspended',
};

/** Every code a billing refusal carries for the clinic's own callers (console and authenticated API). */
export const BILLING_REFUSAL_CODES: readonly string[] = Object.values(CODES);

/**
 * The one answer a patient-facing (public) call gets when billing refuses it (DESIGN decision 35): the same
 * status as the clinic's refusal, a generic code and a message that says nothing of the clinic's account.
 */
export const PUBLIC_REFUSAL_CODE = 'flow_unavailable';
export function patientSafeRefusal(): AppError {
  return new AppError('permission_error', PUBLIC_REFUSAL_CODE, 403, 'This program is not taking new patients right now. Please try again later or contact the clinic.');
}

/** Whether `err` is a billing refusal meant for the clinic (to be replaced by `patientSafeRefusal` on public paths). */
export const isBillingRefusal = (err: unknown): err is AppError => err instanceof AppError && BILLING_REFUSAL_CODES.includes(err.code);

const WHAT: Record<BillingGuardedAction, string> = {
  ai_generation: 'AI generation is paused',
  new_experiment: 'New experiments cannot be started',
  new_approval: 'New approvals are paused',
  new_flow_session: 'New patient sessions cannot start',
  order_create: 'New orders cannot be created',
};

/**
 * The refusal for `action` at `stage`, or null when it may go ahead. Orders already approved, reads, exports and
 * in-flight work are never guarded: a dispatched prescription is never abandoned. `patient` audiences get the
 * generic `flow_unavailable` (a patient on a clinic's funnel is not told the clinic's payment state).
 */
export function billingRefusal(stage: DunningStage, action: BillingGuardedAction, audience: 'tenant' | 'patient' = 'tenant'): AppError | null {
  const decision = decisionFor(stage);
  if (RANK[decision] < RANK[REFUSED_FROM[action]]) return null;
  if (audience === 'patient') return patientSafeRefusal();
  const message =
    `${WHAT[action]} while the account's payment is overdue (billing stage '${stage}', decision ${decision}). ` +
    'Pay the overdue invoice from the Billing page (or POST /v1/billing/portal) to restore it; orders already approved keep moving.';
  return new AppError('permission_error', CODES[decision as Exclude<BillingDecision, 'ROUTE'>], 403, message);
}

/** Throws the refusal for `action` in the caller's tenant and mode, judged on the stage at this moment. */
export async function assertBillingAllows(q: Queryable, scope: Scope, action: BillingGuardedAction, at: Date = now()): Promise<void> {
  const account = await readAccount(q, scope);
  const refusal = billingRefusal(effectiveStage(account, at), action);
  if (refusal) throw refusal;
}
