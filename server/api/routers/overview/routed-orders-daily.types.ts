import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zDateTime } from '@/server/api/schemas/common';

export const consoleRoutedOrdersDailyMeta: ProcedureMeta = { scope: 'orders.read' };
export const ZConsoleRoutedOrdersDailyRequest = z.object({
  days: z.number().int().min(1, 'Days must be at least 1.').max(90, 'Days can be at most 90.').default(30).meta({ description: 'How many UTC days, ending today' }),
});

export const ZDailySeries = z.object({
  from: zDateTime.meta({ description: 'First instant of the first day (UTC), inclusive' }),
  to: zDateTime.meta({ description: 'First instant after the last day (UTC), exclusive' }),
  total: z.number().int().min(0),
  days: z.array(z.object({ date: z.string().meta({ description: 'YYYY-MM-DD, UTC' }), count: z.number().int().min(0) })),
});
