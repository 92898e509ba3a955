import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { ZStatusCallback } from './protocol/schemas';
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
  const parsed = ZStatusCallback.safeParse(json);
  if (!parsed.success) throw new CallbackRejected('bad_payload', 'The callback body does not match the callback schema.');
  return { callbackId: headers['webhook-id'], ...parsed.data };
}
