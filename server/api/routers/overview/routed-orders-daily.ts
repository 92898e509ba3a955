import { keyOrUserProcedure } from '@/server/api/procedures';
import { routedOrdersDaily } from '@/server/domain/overview/routed-daily';
import { now } from '@/server/lib/clock';
import { consoleRoutedOrdersDailyMeta, ZConsoleRoutedOrdersDailyRequest, ZDailySeries } from './routed-orders-daily.types';

export const consoleRoutedOrdersDailyRoute = keyOrUserProcedure
  .meta(consoleRoutedOrdersDailyMeta)
  .input(ZConsoleRoutedOrdersDailyRequest)
  .output(ZDailySeries)
  .query(({ ctx, input }) => routedOrdersDaily(ctx.services.database.db, ctx.principal, input.days, now()));
