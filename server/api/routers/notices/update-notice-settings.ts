import { keyOrUserProcedure } from '@/server/api/procedures';
import { patchNoticeSettings } from '@/server/domain/notices/views';
import { deliveryFacts } from './delivery-facts';
import { updateNoticeSettingsMeta, ZUpdateNoticeSettingsRequest, ZUpdateNoticeSettingsResponse } from './update-notice-settings.types';

export const updateNoticeSettingsRoute = keyOrUserProcedure
  .meta(updateNoticeSettingsMeta)
  .input(ZUpdateNoticeSettingsRequest)
  .output(ZUpdateNoticeSettingsResponse)
  .mutation(({ ctx, input }) => patchNoticeSettings(ctx.services.database.db, ctx.principal, input, deliveryFacts(ctx.services.config), ctx.services.auth.publicUrl));
