import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZDailySeries } from '../overview/routed-orders-daily.types';

/** The usage page's chart: the billable count (live, this billing period) per UTC day. */
export const consoleUsageRoutedDailyMeta: ProcedureMeta = { scope: 'usage.read' };
export const ZConsoleUsageRoutedDailyRequest = z.object({}).optional();
export const ZConsoleUsageRoutedDailyResponse = ZDailySeries;
