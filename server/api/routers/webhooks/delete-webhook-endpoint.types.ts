import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZDeleteResult } from './webhook.types';

export const deleteWebhookEndpointMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'webhooks.manage',
  openapi: {
    method: 'DELETE',
    path: '/developer/webhooks/{id}',
    tags: ['developer'],
    summary: 'Delete a webhook endpoint for good; its secret signs nothing more',
    errorResponses: { 404: 'No such endpoint on this tenant' },
  },
};
export const ZDeleteWebhookEndpointRequest = z.object({ id: zId('Webhook endpoint') });
export const ZDeleteWebhookEndpointResponse = ZDeleteResult;
