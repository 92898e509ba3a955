import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { ConfigurationError } from './errors.js';
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

const SECRET_PREFIX = 'whsec_';
/** Every signing secret the service mints (and `npm run cli -- listen` prints) is 32 random bytes. */
const SECRET_BYTES = 32;

function malformed(why: string): ConfigurationError {
  return new ConfigurationError('webhook_secret_malformed', `The webhook signing secret is malformed: ${why}. Expected whsec_ followed by the base64 of 32 bytes, exactly as the endpoint's secret was shown.`);
}

/**
 * Refuses, before any signature is looked at, a secret no delivery could be signed with: none at all, or not
 * `whsec_` + the standard, padded base64 of 32 bytes (no URL-safe alphabet, no whitespace, no missing padding).
 */
function checkSecret(secret: unknown): asserts secret is string {
  if (secret === undefined || secret === null || secret === '') {
    throw new ConfigurationError('webhook_secret_missing', "A webhook signing secret is required: pass the endpoint's whsec_… secret (is its environment variable set?).");
  }
  if (typeof secret !== 'string') throw malformed(`it is a ${typeof secret}, not a string`);
  if (!secret.startsWith(SECRET_PREFIX)) throw malformed('it does not start with whsec_');
  const encoded = secret.slice(SECRET_PREFIX.length);
  let decoded: string;
  try {
    decoded = atob(encoded);
  } catch {
    throw malformed('what follows whsec_ is not base64');
  }
  // atob forgives whitespace, missing padding and stray low bits; the secret the service shows has none of them.
  if (btoa(decoded) !== encoded) throw malformed('what follows whsec_ is not standard, padded base64');
  if (decoded.length !== SECRET_BYTES) throw malformed(`it decodes to ${decoded.length} bytes, not ${SECRET_BYTES}`);
}

/**
 * Checks a delivery's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with
 * the endpoint's `whsec_…` secret (or the one `npm run cli -- listen` prints) and returns the event; throws
 * `WebhookVerificationError` on a bad signature or a timestamp more than 5 minutes away, and `ConfigurationError`
 * (code `webhook_secret_missing` or `webhook_secret_malformed`) when the secret itself is unusable, whatever the
 * delivery: the receiver's fault, to answer with a 5xx, never taken for a forgery. Pass the body exactly as
 * received (the raw string or bytes, not re-serialised JSON). Dedupe on `event.id`: deliveries are at least once.
 */
export function verifyWebhook(payload: string | Uint8Array, headers: HeaderSource, secret: string): WebhookEvent {
  checkSecret(secret);
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  return new Webhook(secret).verify(body, plainHeaders(headers)) as WebhookEvent;
}
