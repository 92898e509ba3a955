import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';

export const receiveCallbackMeta: OpenApiMeta<ProcedureMeta> = {
  rawBody: true,
  openapi: {
    method: 'POST',
    path: '/pharmacy-callbacks/{connectionId}',
    tags: ['pharmacies'],
    summary: "A pharmacy's status callback, signed Standard Webhooks-style with the connection's secret (no bearer)",
    description:
      'Body `{idempotencyKey, status: accepted|rejected|shipped|delivered|cancelled, reasonCode?, tracking?: {carrier, number, url?}, estimatedDelivery?}`; `idempotencyKey` is the one the order was submitted with. Statuses only move forward; repeats and older statuses change nothing. Every callback is kept and counted by /orders/reconciliation, whatever its content type and even when it is not JSON (a signed body that is not a callback is a 400, an unsigned one a 401).',
    protect: false,
    errorResponses: { 400: 'The body does not match the callback schema', 401: 'The signature does not verify', 404: 'No such pharmacy connection' },
  },
};
export const ZReceiveCallbackRequest = z.looseObject({ connectionId: zId('Pharmacy connection') });
export const ZReceiveCallbackResponse = z
  .object({
    received: z.literal(true).meta({ description: 'The callback was verified and kept' }),
    outcome: z.enum(['applied', 'duplicate', 'stale', 'unmatched']).meta({
      description: '`applied` moved the order; `duplicate` repeated its status; `stale` was older than it; `unmatched` named no order of this connection',
    }),
  })
  .meta({ id: 'CallbackReceipt' });
