import { keyOrUserProcedure } from '@/server/api/procedures';
import { getNoticeSettings } from '@/server/domain/notices/views';
import { deliveryFacts } from './delivery-facts';
import { getNoticeSettingsMeta, ZGetNoticeSettingsRequest, ZGetNoticeSettingsResponse } from './get-notice-settings.types';

export const getNoticeSettingsRoute = keyOrUserProcedure
  .meta(getNoticeSettingsMeta)
  .input(ZGetNoticeSettingsRequest)
  .output(ZGetNoticeSettingsResponse)
  .query(({ ctx }) => getNoticeSettings(ctx.services.database.db, ctx.principal, deliveryFacts(ctx.services.config), ctx.services.auth.publicUrl));
