import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZWebhookTestResult } from './webhook.types';

export const testWebhookEndpointMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'webhooks.manage',
  successStatus: 201,
  externalEffects: true,
  openapi: {
    method: 'POST',
    path: '/developer/webhooks/{id}/test',
    tags: ['developer'],
    summary: 'Send a synthetic, signed, PHI-free `webhook.test` event and report the live result',
    errorResponses: { 404: 'No such endpoint on this tenant', 409: 'The endpoint is disabled' },
  },
};
export const ZTestWebhookEndpointRequest = z.object({ id: zId('Webhook endpoint') });
export const ZTestWebhookEndpointResponse = ZWebhookTestResult;
