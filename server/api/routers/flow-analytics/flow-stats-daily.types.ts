import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zDay } from './flow-analytics.types';

// Console only (no REST path): the funnel chart's series.
export const flowStatsDailyMeta: ProcedureMeta = { scope: 'FLOWS_ANALYTICS_VIEW' };
export const ZFlowStatsDailyRequest = z.object({
  flowId: z.string().min(1).max(100),
  from: zDay.optional().meta({ description: 'First day (UTC); default 29 days before `to`' }),
  to: zDay.optional().meta({ description: 'Last day (UTC), inclusive; default today' }),
});
export const ZFlowStatsDailyResponse = z.array(
  z.object({
    day: z.string().meta({ description: 'YYYY-MM-DD, UTC' }),
    views: z.number().int(),
    sessions: z.number().int(),
    qualified: z.number().int(),
    disqualified: z.number().int(),
  }),
);
