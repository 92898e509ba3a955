import { keyOrUserProcedure } from '@/server/api/procedures';
import { EVENT_TYPES } from '@/server/domain/events/catalog';
import { listWebhookEventTypesMeta, ZListWebhookEventTypesRequest, ZListWebhookEventTypesResponse } from './list-webhook-event-types.types';

export const listWebhookEventTypesRoute = keyOrUserProcedure
  .meta(listWebhookEventTypesMeta)
  .input(ZListWebhookEventTypesRequest)
  .output(ZListWebhookEventTypesResponse)
  .query(() => [...EVENT_TYPES]);
