import { keyOrUserProcedure } from '@/server/api/procedures';
import { billableRoutedDaily } from '@/server/domain/overview/routed-daily';
import { now } from '@/server/lib/clock';
import { consoleUsageRoutedDailyMeta, ZConsoleUsageRoutedDailyRequest, ZConsoleUsageRoutedDailyResponse } from './usage-routed-daily.types';

export const consoleUsageRoutedDailyRoute = keyOrUserProcedure
  .meta(consoleUsageRoutedDailyMeta)
  .input(ZConsoleUsageRoutedDailyRequest)
  .output(ZConsoleUsageRoutedDailyResponse)
  .query(({ ctx }) => billableRoutedDaily(ctx.services.database.db, ctx.principal.tenantId, now()));
