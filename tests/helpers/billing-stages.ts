import type { DunningStage } from '@/db/schema';
import type { ApiResponse } from './harness';

/** The actions each dunning stage may refuse (decision 29), as the billing tests try them. */
export type GuardedAction = 'aiFlow' | 'aiDraft' | 'experiment' | 'approve' | 'reviewApprove' | 'session' | 'orderCreate';
export const GUARDED_ACTIONS: readonly GuardedAction[] = ['aiFlow', 'aiDraft', 'experiment', 'approve', 'reviewApprove', 'session', 'orderCreate'];

/** One try of an action: its answer, and the status it answers when allowed. */
export type TryAction = () => Promise<{ res: ApiResponse; created: number }>;

const refusing = (code: string, actions: GuardedAction[]) =>
  Object.fromEntries(GUARDED_ACTIONS.map((a) => [a, actions.includes(a) ? code : null])) as Record<GuardedAction, string | null>;

/** What each stage refuses, by the code the clinic's own callers get (a patient's session gets `flow_unavailable`). */
export const REFUSED_BY_STAGE: Record<DunningStage, Record<GuardedAction, string | null>> = {
  healthy: refusing('', []),
  grace: refusing('', []),
  recovered: refusing('', []),
  warning: refusing('billing_degraded', ['aiFlow', 'aiDraft', 'experiment']),
  restricted: refusing('billing_restricted', ['aiFlow', 'aiDraft', 'experiment', 'approve', 'reviewApprove', 'session']),
  suspended: refusing('billing_suspended', [...GUARDED_ACTIONS]),
};
