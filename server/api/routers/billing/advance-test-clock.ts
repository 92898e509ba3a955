import { keyOrUserProcedure } from '@/server/api/procedures';
import { advanceTestClock } from '@/server/domain/billing/test-clock';
import { advanceTestClockMeta, ZAdvanceTestClockRequest, ZAdvanceTestClockResponse } from './advance-test-clock.types';

export const advanceTestClockRoute = keyOrUserProcedure
  .meta(advanceTestClockMeta)
  .input(ZAdvanceTestClockRequest)
  .output(ZAdvanceTestClockResponse)
  .mutation(({ ctx, input }) => advanceTestClock(ctx.services.database.db, ctx.principal, input.days));
