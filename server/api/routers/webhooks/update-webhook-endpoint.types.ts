import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZUpdateWebhookEndpoint, ZWebhookEndpoint } from './webhook.types';

export const updateWebhookEndpointMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'webhooks.manage',
  openapi: {
    method: 'PATCH',
    path: '/developer/webhooks/{id}',
    tags: ['developer'],
    summary: 'Change a webhook endpoint (send only the fields to change); disabling keeps the secret',
    errorResponses: { 400: 'Invalid URL, non-https or private host, or unknown event type', 404: 'No such endpoint on this tenant' },
  },
};
export const ZUpdateWebhookEndpointRequest = ZUpdateWebhookEndpoint.extend({ id: zId('Webhook endpoint') });
export const ZUpdateWebhookEndpointResponse = ZWebhookEndpoint;
