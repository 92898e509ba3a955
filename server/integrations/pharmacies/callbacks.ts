import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import * as z from '@/server/lib/zod';
import type { CallbackUpdate } from './types';

/** An inbound callback that fails signature or shape checks; kept and counted, never applied. */
export class CallbackRejected extends Error {
  constructor(
    readonly reason: 'bad_signature' | 'bad_payload',
    message: string,
  ) {
    super(message);
    this.name = 'CallbackRejected';
  }
}

const zTracking = z.strictObject({ carrier: z.string().min(1).max(50), number: z.string().min(1).max(100), url: z.url().max(2048).nullable().default(null) });

/** The one callback body every adapter speaks (documented in the README for http pharmacies). */
export const ZCallbackBody = z.object({
  idempotencyKey: z.string().min(1).max(200),
  status: z.enum(['accepted', 'rejected', 'shipped', 'delivered', 'cancelled']),
  reasonCode: z.string().regex(/^[a-z0-9_]{1,64}$/).nullable().default(null),
  tracking: zTracking.nullable().default(null),
  estimatedDelivery: z.iso.date().nullable().default(null),
});

const header = (h: Record<string, string | string[] | undefined>, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Standard Webhooks verification (signature and a five-minute timestamp window) with the connection's secret. */
export function parseSignedCallback(secret: string, req: { headers: Record<string, string | string[] | undefined>; rawBody: string }): CallbackUpdate {
  const headers = { 'webhook-id': header(req.headers, 'webhook-id') ?? '', 'webhook-timestamp': header(req.headers, 'webhook-timestamp') ?? '', 'webhook-signature': header(req.headers, 'webhook-signature') ?? '' };
  let json: unknown;
  try {
    json = new Webhook(secret).verify(req.rawBody, headers);
  } catch (err) {
    if (err instanceof WebhookVerificationError) throw new CallbackRejected('bad_signature', 'The callback signature does not verify.');
    throw new CallbackRejected('bad_payload', 'The callback body is not JSON.');
  }
  const parsed = ZCallbackBody.safeParse(json);
  if (!parsed.success) throw new CallbackRejected('bad_payload', 'The callback body does not match the callback schema.');
  return { callbackId: headers['webhook-id'], ...parsed.data };
}
