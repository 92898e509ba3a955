import type { DunningStage } from '@/db/schema/billing';

export type BillingDecision = 'ROUTE' | 'DEGRADE' | 'SOFT_BLOCK' | 'BLOCK';

const DAY_MS = 86_400_000;
/** Ops' one-time extension moves every later dunning step back by this much (DESIGN decision 29). */
export const GRACE_EXTENSION_MS = 7 * DAY_MS;

// Days since the first failed payment at which each stage ends (decision 29): grace 0–3, warning 3–7, restricted 7–14.
const STAGE_ENDS: { stage: DunningStage; endsAfterDays: number }[] = [
  { stage: 'grace', endsAfterDays: 3 },
  { stage: 'warning', endsAfterDays: 7 },
  { stage: 'restricted', endsAfterDays: 14 },
];

/** Where a dunning clock that started at `firstFailedAt` stands at `at`, and when it next moves (null once suspended). */
export function dunningStageAt(firstFailedAt: Date, graceExtended: boolean, at: Date): { stage: DunningStage; nextActionAt: Date | null } {
  const start = firstFailedAt.getTime() + (graceExtended ? GRACE_EXTENSION_MS : 0);
  for (const { stage, endsAfterDays } of STAGE_ENDS) {
    const end = start + endsAfterDays * DAY_MS;
    if (at.getTime() < end) return { stage, nextActionAt: new Date(end) };
  }
  return { stage: 'suspended', nextActionAt: null };
}

/** The stage an account is in at `at`: computed from the dunning clock while a payment is past due, so a worker running late never lets a clinic route past its stage. */
export function effectiveStage(account: { stage: DunningStage; firstFailedAt: Date | null; graceExtended: boolean }, at: Date): DunningStage {
  return account.firstFailedAt ? dunningStageAt(account.firstFailedAt, account.graceExtended, at).stage : account.stage;
}

const DECISIONS: Record<DunningStage, BillingDecision> = {
  healthy: 'ROUTE',
  grace: 'ROUTE',
  recovered: 'ROUTE',
  warning: 'DEGRADE',
  restricted: 'SOFT_BLOCK',
  suspended: 'BLOCK',
};

export const decisionFor = (stage: DunningStage): BillingDecision => DECISIONS[stage];

/** Stages whose start the owners are mailed about (decision 29). */
export const NOTIFIED_STAGES: readonly DunningStage[] = ['warning', 'restricted', 'suspended'];

/** Stages the console shows a banner for: a payment is past due. */
export const isUnhealthy = (stage: DunningStage) => stage === 'grace' || stage === 'warning' || stage === 'restricted' || stage === 'suspended';
