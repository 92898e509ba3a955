import { router } from '@/server/api/trpc';
import { getNoticeSettingsRoute } from './get-notice-settings';
import { previewNoticeRoute } from './preview-notice';
import { updateNoticeSettingsRoute } from './update-notice-settings';

/** Patient notices (DESIGN decision 41): the clinic's settings and previews. What an order's patient was sent is `/orders/{id}/notices`. */
export const noticesRouter = router({
  previewNotice: previewNoticeRoute,
  getNoticeSettings: getNoticeSettingsRoute,
  updateNoticeSettings: updateNoticeSettingsRoute,
});
