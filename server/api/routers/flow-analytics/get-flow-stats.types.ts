import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zDay } from './flow-analytics.types';

export const getFlowStatsMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'FLOWS_ANALYTICS_VIEW',
  openapi: {
    method: 'GET',
    path: '/flows/{id}/stats',
    tags: ['flows'],
    summary: 'Funnel counts of a flow: views, sessions, qualified, disqualified, qualifyRate, and per step how many reached and completed it',
    description:
      'views: sessions that sent a view beacon or saved a step; sessions: sessions created; byStep: per step of the active version (or of versionId), in step order, the sessions that reached it (were shown it, at least those that completed it) and its unique completions, so reached − completes is the drop-off at that step. Counted once per session; from and to are UTC days, inclusive.',
    errorResponses: {
      400: 'A bad date (param from or to) or from after to',
      403: 'Missing FLOWS_ANALYTICS_VIEW',
      404: 'No such flow (or version of it) on this tenant in this mode',
    },
  },
};
export const ZGetFlowStatsRequest = z.object({
  id: z.string().min(1).max(100).meta({ description: 'Flow id (flw_…)' }),
  from: zDay.optional(),
  to: zDay.optional(),
  versionId: z.string().min(1).max(100).optional().meta({ description: 'Only sessions of this version (fv_…); byStep then lists its steps' }),
});
export const ZGetFlowStatsResponse = z
  .object({
    views: z.number().int(),
    sessions: z.number().int(),
    qualified: z.number().int(),
    disqualified: z.number().int(),
    qualifyRate: z.number().meta({ description: 'qualified / views; 0 with no views' }),
    byStep: z.array(
      z.object({
        stepId: z.string(),
        reached: z.number().int().meta({ description: 'Sessions the step was shown to (its step_viewed beacon), never fewer than completed it' }),
        completes: z.number().int().meta({ description: 'Sessions that completed the step: a clinical step’s save, a presentation step’s step_completed beacon, the outcome’s submit' }),
      }),
    ),
  })
  .meta({ id: 'FlowStats' });
