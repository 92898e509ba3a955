import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { EXPERIMENTS_SCOPE, ZExperiment, ZExperimentOverride, zSplitPct } from './experiment.types';

export const createExperimentMeta: OpenApiMeta<ProcedureMeta> = {
  scope: EXPERIMENTS_SCOPE,
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/flows/{id}/experiments',
    tags: ['experiments'],
    summary: "Start an A/B experiment on a flow's presentation plane (copy, theme tokens, order of presentation steps); sessions are assigned to an arm from then on",
    description:
      "The overrides are checked against the flow's active version (else its draft). Assignment is deterministic and sticky: the first 4 bytes of SHA-256(`experimentId:sessionId`) mod 10,000, the variant below splitPct × 100.",
    errorResponses: {
      400: 'A bad body, or an override naming a missing or clinical step (param overrides.<i>.stepId), a bad block, theme token or order (overrides.<i>.blocks.<field>); nothing is created',
      403: 'Missing FLOWS_ANALYTICS_VIEW or flows.manage; or new experiments are paused while a payment is overdue (billing_degraded, billing_restricted, billing_suspended)',
      404: 'No such flow on this tenant in this mode',
      409: 'Another experiment is running on the flow (experiment_running), or the flow is archived',
    },
  },
};
export const ZCreateExperimentRequest = z.strictObject({
  id: zId('Flow'),
  name: z.string().trim().min(1).max(200).meta({ description: "The team's name for the experiment" }),
  splitPct: zSplitPct,
  overrides: z.array(ZExperimentOverride).max(50).meta({ description: 'The variant: step patches of presentation steps, and at most one `$flow` override' }),
});
export const ZCreateExperimentResponse = ZExperiment;
