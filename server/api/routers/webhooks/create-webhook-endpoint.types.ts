import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZCreatedWebhookEndpoint, ZCreateWebhookEndpoint } from './webhook.types';

export const createWebhookEndpointMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'webhooks.manage',
  successStatus: 201,
  secretFields: ['secret'],
  openapi: {
    method: 'POST',
    path: '/developer/webhooks',
    tags: ['developer'],
    summary: 'Create a webhook endpoint; its whsec_ signing secret is returned once',
    errorResponses: { 400: 'Invalid URL, non-https or private host, or unknown event type' },
  },
};
export const ZCreateWebhookEndpointRequest = ZCreateWebhookEndpoint;
export const ZCreateWebhookEndpointResponse = ZCreatedWebhookEndpoint;
