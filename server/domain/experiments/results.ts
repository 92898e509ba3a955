import { and, eq, inArray, sql } from 'drizzle-orm';
import { flowStatsDaily } from '@/db/schema';
import type { Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { expectedLoss, posterior, probGreater, relativeUplift, srmPValue } from './stats';

/**
 * Live results of experiments (spec "Flow objects", DESIGN decision 27), read from the per-day aggregate the
 * runtime bumps under each session's experiment and arm: O(days × arms) rows per experiment, never the
 * sessions. `sessions` are sessions assigned to the arm; `qualified` those that reached an eligible verdict.
 */

/** GrowthBook's default: a sample-ratio p-value below this is a mismatch worth stopping for. */
export const SRM_THRESHOLD = 0.001;
/** Fewer sessions than this in an arm and the numbers are too noisy to act on (DESIGN decision 27). */
export const MIN_SESSIONS_PER_ARM = 150;

export interface ArmResult {
  sessions: number;
  qualified: number;
  qualifyRate: number;
}

export interface ExperimentAnalysis {
  srmPValue: number | null;
  srmPassed: boolean;
  chanceToBeatControl: number;
  expectedLoss: { control: number; variant: number };
  relativeUplift: { estimate: number; lower: number; upper: number } | null;
  enoughData: boolean;
  minSessionsPerArm: number;
}

export interface ExperimentResults {
  results: { control: ArmResult; variant: ArmResult };
  analysis: ExperimentAnalysis;
}

const arm = (sessions: number, qualified: number): ArmResult => ({ sessions, qualified, qualifyRate: sessions === 0 ? 0 : qualified / sessions });

/**
 * The analysis of two arms: SRM (chi-square against the configured split), the Beta(1,1)-Binomial chance
 * that the variant's qualify rate beats the control's, the expected loss (in qualify-rate points) of shipping
 * each arm, the relative uplift with its 95% interval, and whether both arms have enough sessions.
 */
export function analyse(control: ArmResult, variant: ArmResult, splitBasisPoints: number): ExperimentAnalysis {
  // A session counts as qualified at most once, but clamp anyway: a Beta needs qualified ≤ sessions.
  const c = { conversions: Math.min(control.qualified, control.sessions), trials: control.sessions };
  const v = { conversions: Math.min(variant.qualified, variant.sessions), trials: variant.sessions };
  const pc = posterior(c.conversions, c.trials);
  const pv = posterior(v.conversions, v.trials);
  const srm = srmPValue(control.sessions, variant.sessions, splitBasisPoints / 10_000);
  return {
    srmPValue: srm,
    srmPassed: srm === null || srm >= SRM_THRESHOLD,
    chanceToBeatControl: probGreater(pc, pv),
    expectedLoss: { control: expectedLoss(pv, pc), variant: expectedLoss(pc, pv) },
    relativeUplift: relativeUplift(c, v),
    enoughData: control.sessions >= MIN_SESSIONS_PER_ARM && variant.sessions >= MIN_SESSIONS_PER_ARM,
    minSessionsPerArm: MIN_SESSIONS_PER_ARM,
  };
}

/** Results of each experiment (all of one flow, in the caller's scope), from the flow-level rows of the aggregate. */
export async function experimentResults(q: Queryable, scope: Scope, flowId: string, experiments: { id: string; splitBasisPoints: number }[]): Promise<Map<string, ExperimentResults>> {
  const out = new Map<string, ExperimentResults>();
  if (experiments.length === 0) return out;
  const rows = await q
    .select({
      experimentId: flowStatsDaily.experimentId,
      arm: flowStatsDaily.arm,
      sessions: sql<number>`coalesce(sum(${flowStatsDaily.sessions}), 0)::int`,
      qualified: sql<number>`coalesce(sum(${flowStatsDaily.qualified}), 0)::int`,
    })
    .from(flowStatsDaily)
    .where(
      and(
        eq(flowStatsDaily.tenantId, scope.tenantId),
        eq(flowStatsDaily.livemode, scope.livemode),
        eq(flowStatsDaily.flowId, flowId),
        eq(flowStatsDaily.stepId, ''),
        inArray(
          flowStatsDaily.experimentId,
          experiments.map((e) => e.id),
        ),
      ),
    )
    .groupBy(flowStatsDaily.experimentId, flowStatsDaily.arm);
  for (const e of experiments) {
    const of = (name: 'control' | 'variant') => {
      const r = rows.find((row) => row.experimentId === e.id && row.arm === name);
      return arm(Number(r?.sessions ?? 0), Number(r?.qualified ?? 0));
    };
    const control = of('control');
    const variant = of('variant');
    out.set(e.id, { results: { control, variant }, analysis: analyse(control, variant, e.splitBasisPoints) });
  }
  return out;
}
