import { keyOrUserProcedure } from '@/server/api/procedures';
import { listEndpoints } from '@/server/domain/webhooks/endpoints';
import { listWebhookEndpointsMeta, ZListWebhookEndpointsRequest, ZListWebhookEndpointsResponse } from './list-webhook-endpoints.types';

export const listWebhookEndpointsRoute = keyOrUserProcedure
  .meta(listWebhookEndpointsMeta)
  .input(ZListWebhookEndpointsRequest)
  .output(ZListWebhookEndpointsResponse)
  .query(({ ctx }) => listEndpoints(ctx.services.database.db, ctx.principal));
