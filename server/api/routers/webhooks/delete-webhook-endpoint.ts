import { keyOrUserProcedure } from '@/server/api/procedures';
import { deleteEndpoint } from '@/server/domain/webhooks/endpoints';
import { deleteWebhookEndpointMeta, ZDeleteWebhookEndpointRequest, ZDeleteWebhookEndpointResponse } from './delete-webhook-endpoint.types';

export const deleteWebhookEndpointRoute = keyOrUserProcedure
  .meta(deleteWebhookEndpointMeta)
  .input(ZDeleteWebhookEndpointRequest)
  .output(ZDeleteWebhookEndpointResponse)
  .mutation(({ ctx, input }) => deleteEndpoint(ctx.services.database.db, ctx.principal, input.id));
