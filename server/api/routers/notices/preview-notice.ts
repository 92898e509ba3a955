import { keyOrUserProcedure } from '@/server/api/procedures';
import { previewNotice } from '@/server/domain/notices/views';
import { previewNoticeMeta, ZPreviewNoticeRequest, ZPreviewNoticeResponse } from './preview-notice.types';

export const previewNoticeRoute = keyOrUserProcedure
  .meta(previewNoticeMeta)
  .input(ZPreviewNoticeRequest)
  .output(ZPreviewNoticeResponse)
  .query(({ ctx, input }) => previewNotice(ctx.services.database.db, ctx.principal, input, ctx.services.auth.publicUrl));
