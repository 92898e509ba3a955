import { keyOrUserProcedure } from '@/server/api/procedures';
import { listOrderNotices } from '@/server/domain/notices/views';
import { listOrderNoticesMeta, ZListOrderNoticesRequest, ZListOrderNoticesResponse } from './list-order-notices.types';

export const listOrderNoticesRoute = keyOrUserProcedure
  .meta(listOrderNoticesMeta)
  .input(ZListOrderNoticesRequest)
  .output(ZListOrderNoticesResponse)
  .query(({ ctx, input }) => listOrderNotices(ctx.services.database.db, ctx.principal, input.id));
