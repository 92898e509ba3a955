import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zCause, zChannel, zMilestone, ZNoticePreview } from './notice.types';

export const previewNoticeMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'patients.write',
  openapi: {
    method: 'GET',
    path: '/notices/settings/preview',
    tags: ['notices'],
    summary: 'One message as a patient would get it with the current settings, for a sample order (subject and text)',
    errorResponses: { 400: 'A missing or unknown milestone, channel or cause (param names it)' },
  },
};
export const ZPreviewNoticeRequest = z.object({ milestone: zMilestone, channel: zChannel, cause: zCause.optional() });
export const ZPreviewNoticeResponse = ZNoticePreview;
