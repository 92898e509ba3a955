import { keyOrUserProcedure } from '@/server/api/procedures';
import { updateEndpoint } from '@/server/domain/webhooks/endpoints';
import { deliveryOptions } from '@/server/domain/webhooks/options';
import { updateWebhookEndpointMeta, ZUpdateWebhookEndpointRequest, ZUpdateWebhookEndpointResponse } from './update-webhook-endpoint.types';

export const updateWebhookEndpointRoute = keyOrUserProcedure
  .meta(updateWebhookEndpointMeta)
  .input(ZUpdateWebhookEndpointRequest)
  .output(ZUpdateWebhookEndpointResponse)
  .mutation(({ ctx, input: { id, ...changes } }) =>
    updateEndpoint(ctx.services.database.db, ctx.principal, id, changes, deliveryOptions(ctx.services.config).policy),
  );
