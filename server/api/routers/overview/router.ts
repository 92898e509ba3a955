import { router } from '@/server/api/trpc';
import { consoleOverviewRoute } from './get-overview';
import { consoleRoutedOrdersDailyRoute } from './routed-orders-daily';

/** The console's overview page: what needs attention across the areas, and routed orders per day. */
export const overviewRouter = router({
  summary: consoleOverviewRoute,
  routedOrdersDaily: consoleRoutedOrdersDailyRoute,
});
