import { router } from '@/server/api/trpc';
import { flowStatsDailyRoute } from './flow-stats-daily';
import { getFlowStatsRoute } from './get-flow-stats';

export const flowAnalyticsRouter = router({
  stats: getFlowStatsRoute,
  daily: flowStatsDailyRoute,
});
