import { router } from '@/server/api/trpc';
import { consoleGoLiveRoute } from './get-go-live-checklist';
import { consoleOverviewRoute } from './get-overview';
import { consoleRoutedOrdersDailyRoute } from './routed-orders-daily';

/** The console's overview page: what needs attention across the areas, routed orders per day, and the go-live checklist. */
export const overviewRouter = router({
  summary: consoleOverviewRoute,
  routedOrdersDaily: consoleRoutedOrdersDailyRoute,
  goLive: consoleGoLiveRoute,
});
