import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZNoticeSettings } from './notice.types';

export const getNoticeSettingsMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'patients.write',
  openapi: {
    method: 'GET',
    path: '/notices/settings',
    tags: ['notices'],
    summary: "This mode's patient notice settings: milestones × channels, sender name, support contact (the defaults until set)",
  },
};
export const ZGetNoticeSettingsRequest = z.object({});
export const ZGetNoticeSettingsResponse = ZNoticeSettings;
