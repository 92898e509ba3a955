import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';

/** Experiments are read and run with the analytics permission (spec "Flows: analytics and experiments"). */
export const EXPERIMENTS_SCOPE = 'FLOWS_ANALYTICS_VIEW';

/**
 * Creating, stopping or folding in an experiment changes what patients read (decision 27a), so it needs the
 * flow-authoring scope as well; reads (list, results, stats) need only the analytics one.
 */
export const EXPERIMENTS_ALSO_NEED = 'flows.manage';

export const zSplitPct = z
  .number()
  .min(0)
  .max(100)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'at most two decimals (the split is kept in basis points)')
  .meta({ description: "The variant's share of new sessions, in percent (0–100, at most two decimals)" });

export const ZExperimentOverride = z
  .strictObject({
    stepId: z
      .string()
      .min(1)
      .max(100)
      .meta({ description: 'A landing, quiz or outcome step, or `$flow` for the whole flow' }),
    blocks: z.record(z.string(), z.unknown()).meta({
      description: 'For a step: block fields to set (null clears an optional one). For `$flow`: `{theme?: {<token>: value | null}, order?: [presentation step ids]}` (order permutes the presentation steps; clinical steps keep their positions)',
    }),
  })
  .meta({ id: 'ExperimentOverride' });

const ZArmResult = z
  .object({
    sessions: z.number().int().meta({ description: 'Sessions assigned to the arm' }),
    qualified: z.number().int().meta({ description: 'Of them, sessions that reached an eligible verdict' }),
    qualifyRate: z.number().meta({ description: 'qualified / sessions; 0 with no sessions' }),
  })
  .meta({ id: 'ExperimentArmResult' });

export const ZExperimentAnalysis = z
  .object({
    srmPValue: z.number().nullable().meta({ description: 'Sample-ratio mismatch: chi-square p-value of the arm sizes against the configured split; null without sessions' }),
    srmPassed: z.boolean().meta({ description: 'False when srmPValue < 0.001: the assignment or counting is broken and the results should not be trusted' }),
    chanceToBeatControl: z.number().meta({ description: "P(variant's qualify rate > control's), Beta(1,1) priors" }),
    expectedLoss: z
      .object({ control: z.number(), variant: z.number() })
      .meta({ description: 'Expected qualify-rate loss (absolute, 0–1) if that arm is shipped and the other is in fact better' }),
    relativeUplift: z
      .object({ estimate: z.number(), lower: z.number(), upper: z.number() })
      .nullable()
      .meta({ description: "Variant's qualify rate over control's, minus 1, with a 95% interval (delta method on the log ratio); null while either arm has no qualified session" }),
    enoughData: z.boolean().meta({ description: 'Both arms have at least minSessionsPerArm sessions' }),
    minSessionsPerArm: z.number().int(),
  })
  .meta({ id: 'ExperimentAnalysis' });

export const ZExperiment = z
  .object({
    id: z.string().meta({ description: 'Experiment id (exp_…)' }),
    object: z.literal('experiment'),
    flowId: z.string(),
    flowVersionId: z.string().nullable().meta({ description: 'The active version when it started (its overrides were checked against it); null when started on the draft' }),
    name: z.string(),
    status: z.enum(['running', 'stopped']),
    splitPct: z.number(),
    overrides: z.array(ZExperimentOverride),
    winnerVariant: z.string().nullable().meta({ description: 'Recorded at stop; null while running' }),
    livemode: z.boolean(),
    startedAt: zDateTime,
    stoppedAt: zDateTime.nullable(),
    foldedInAt: zDateTime.nullable().meta({ description: "When the variant's overrides were last copied into the draft" }),
    results: z.object({ control: ZArmResult, variant: ZArmResult }),
    analysis: ZExperimentAnalysis,
  })
  .meta({ id: 'Experiment' });
