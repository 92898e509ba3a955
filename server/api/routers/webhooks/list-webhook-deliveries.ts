import { keyOrUserProcedure } from '@/server/api/procedures';
import { listDeliveries } from '@/server/domain/webhooks/deliveries';
import { listWebhookDeliveriesMeta, ZListWebhookDeliveriesRequest, ZListWebhookDeliveriesResponse } from './list-webhook-deliveries.types';

export const listWebhookDeliveriesRoute = keyOrUserProcedure
  .meta(listWebhookDeliveriesMeta)
  .input(ZListWebhookDeliveriesRequest)
  .output(ZListWebhookDeliveriesResponse)
  .query(({ ctx, input }) => listDeliveries(ctx.services.database.db, ctx.principal, input.id));
