import { router } from '@/server/api/trpc';
import { createWebhookEndpointRoute } from './create-webhook-endpoint';
import { deleteWebhookEndpointRoute } from './delete-webhook-endpoint';
import { listWebhookDeliveriesRoute } from './list-webhook-deliveries';
import { listWebhookEndpointsRoute } from './list-webhook-endpoints';
import { listWebhookEventTypesRoute } from './list-webhook-event-types';
import { testWebhookEndpointRoute } from './test-webhook-endpoint';
import { updateWebhookEndpointRoute } from './update-webhook-endpoint';

// `/developer/webhooks/events` comes before the `{id}` paths: the first matching path wins.
export const webhooksRouter = router({
  listWebhookEventTypes: listWebhookEventTypesRoute,
  listWebhookEndpoints: listWebhookEndpointsRoute,
  createWebhookEndpoint: createWebhookEndpointRoute,
  updateWebhookEndpoint: updateWebhookEndpointRoute,
  deleteWebhookEndpoint: deleteWebhookEndpointRoute,
  testWebhookEndpoint: testWebhookEndpointRoute,
  listWebhookDeliveries: listWebhookDeliveriesRoute,
});
