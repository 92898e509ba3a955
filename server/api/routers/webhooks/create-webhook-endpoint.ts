import { keyOrUserProcedure } from '@/server/api/procedures';
import { createEndpoint } from '@/server/domain/webhooks/endpoints';
import { deliveryOptions } from '@/server/domain/webhooks/options';
import { createWebhookEndpointMeta, ZCreateWebhookEndpointRequest, ZCreateWebhookEndpointResponse } from './create-webhook-endpoint.types';

export const createWebhookEndpointRoute = keyOrUserProcedure
  .meta(createWebhookEndpointMeta)
  .input(ZCreateWebhookEndpointRequest)
  .output(ZCreateWebhookEndpointResponse)
  .mutation(({ ctx, input }) =>
    createEndpoint(ctx.services.database.db, ctx.principal, input, deliveryOptions(ctx.services.config).policy),
  );
