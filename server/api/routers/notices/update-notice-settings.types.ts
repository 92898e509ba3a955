import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZNoticeSettings, ZUpdateNoticeSettings } from './notice.types';

export const updateNoticeSettingsMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'patients.write',
  openapi: {
    method: 'PATCH',
    path: '/notices/settings',
    tags: ['notices'],
    summary: "Change this mode's patient notice settings (fields not sent keep their value; null clears a text)",
    errorResponses: { 400: 'An unknown milestone, channel or field, a switch that is not true or false, or a sender name or support contact that is empty, too long or not one line (param names it); nothing is written' },
  },
};
export const ZUpdateNoticeSettingsRequest = ZUpdateNoticeSettings;
export const ZUpdateNoticeSettingsResponse = ZNoticeSettings;
