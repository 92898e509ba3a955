import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZWebhookDelivery } from './webhook.types';

export const listWebhookDeliveriesMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'webhooks.manage',
  openapi: {
    method: 'GET',
    path: '/developer/webhooks/{id}/deliveries',
    tags: ['developer'],
    summary: 'The endpoint’s last 50 deliveries, newest first',
    errorResponses: { 404: 'No such endpoint on this tenant' },
  },
};
export const ZListWebhookDeliveriesRequest = z.object({ id: zId('Webhook endpoint') });
export const ZListWebhookDeliveriesResponse = z.array(ZWebhookDelivery);
