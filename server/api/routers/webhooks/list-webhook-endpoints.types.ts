import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZWebhookEndpoint } from './webhook.types';

export const listWebhookEndpointsMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'webhooks.manage',
  openapi: { method: 'GET', path: '/developer/webhooks', tags: ['developer'], summary: 'List webhook endpoints, oldest first (no secrets)' },
};
export const ZListWebhookEndpointsRequest = z.object({});
export const ZListWebhookEndpointsResponse = z.array(ZWebhookEndpoint);
