import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from './generated/openapi.js';

/** A delivered event: the same PHI-free shape as the event log's (`GET /v1/developer/events/{id}`). */
export type WebhookEvent = components['schemas']['Event'];

export { WebhookVerificationError };

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function plainHeaders(headers: HeaderSource): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers instanceof Headers) headers.forEach((v, k) => (out[k.toLowerCase()] = v));
  else for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v[0] : v;
  return out;
}

/**
 * Checks a delivery's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with
 * the endpoint's `whsec_…` secret (or the one `npm run cli -- listen` prints) and returns the event; throws
 * `WebhookVerificationError` on a bad signature or a timestamp more than 5 minutes away. Pass the body exactly
 * as received (the raw string or bytes, not re-serialised JSON). Dedupe on `event.id`: deliveries are at least once.
 */
export function verifyWebhook(payload: string | Uint8Array, headers: HeaderSource, secret: string): WebhookEvent {
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  return new Webhook(secret).verify(body, plainHeaders(headers)) as WebhookEvent;
}
