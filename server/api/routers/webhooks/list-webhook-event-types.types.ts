import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';

export const listWebhookEventTypesMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'webhooks.manage',
  openapi: { method: 'GET', path: '/developer/webhooks/events', tags: ['developer'], summary: 'The subscribable event types' },
};
export const ZListWebhookEventTypesRequest = z.object({});
export const ZListWebhookEventTypesResponse = z.array(z.string());
