import { keyOrUserProcedure } from '@/server/api/procedures';
import { deliveryOptions } from '@/server/domain/webhooks/options';
import { testEndpoint } from '@/server/domain/webhooks/test-endpoint';
import { testWebhookEndpointMeta, ZTestWebhookEndpointRequest, ZTestWebhookEndpointResponse } from './test-webhook-endpoint.types';

export const testWebhookEndpointRoute = keyOrUserProcedure
  .meta(testWebhookEndpointMeta)
  .input(ZTestWebhookEndpointRequest)
  .output(ZTestWebhookEndpointResponse)
  .mutation(({ ctx, input }) => testEndpoint(ctx.services.database.db, ctx.principal, input.id, deliveryOptions(ctx.services.config)));
