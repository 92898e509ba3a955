import * as z from '@/server/lib/zod';
import { zDateTime, zReplayNote } from '@/server/api/schemas/common';

const zUrl = z.string().trim().min(1).max(2048).meta({ description: 'https URL; http only for localhost in development', format: 'uri' });
const zEventTypes = z
  .array(z.string().max(100))
  .max(100)
  .meta({ description: 'Subscribed event types; an empty array means all (see GET /developer/webhooks/events)' });
const zStatus = z.enum(['enabled', 'disabled']);
const zDescription = z
  .string()
  .trim()
  .max(500, 'Description can be at most 500 characters.')
  .meta({ description: "The team's note on what the endpoint is for (up to 500 characters; empty clears it)" });

export const ZWebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()),
    status: zStatus,
    secretHint: z.string().meta({ description: 'Masked signing secret' }),
    createdAt: zDateTime,
    lastDelivery: z
      .object({ eventType: z.string(), status: z.string(), at: zDateTime, responseCode: z.number().int().nullable() })
      .nullable(),
  })
  .meta({ id: 'WebhookEndpoint' });

export const ZCreateWebhookEndpoint = z.strictObject({ url: zUrl, events: zEventTypes.default([]), description: zDescription.optional() }).meta({ id: 'CreateWebhookEndpoint' });

export const ZCreatedWebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()),
    status: zStatus,
    secret: z.string().nullable().meta({ description: 'Full signing secret (whsec_…), shown once; null in an Idempotency-Key replay' }),
    note: zReplayNote,
  })
  .meta({ id: 'CreatedWebhookEndpoint' });

export const ZUpdateWebhookEndpoint = z
  .strictObject({ url: zUrl.optional(), events: zEventTypes.optional(), status: zStatus.optional(), description: zDescription.optional() })
  .meta({ id: 'UpdateWebhookEndpoint' });

export const ZDeleteResult = z.object({ deleted: z.boolean(), id: z.string().optional() }).meta({ id: 'DeleteResult' });

export const ZWebhookTestResult = z
  .object({ status: z.enum(['delivered', 'failed']), responseCode: z.number().int().nullable(), lastError: z.string().nullable() })
  .meta({ id: 'WebhookTestResult' });

export const ZWebhookDelivery = z
  .object({
    id: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(['pending', 'failed', 'delivered', 'dead']),
    attempts: z.number().int(),
    responseCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: zDateTime,
    deliveredAt: zDateTime.nullable(),
    nextAttemptAt: zDateTime.meta({ description: 'When the next attempt runs; for a finished delivery, when its last attempt ran' }),
  })
  .meta({ id: 'WebhookDelivery' });
