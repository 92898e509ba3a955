// Standard Webhooks signing (https://www.standardwebhooks.com), both ways, with node:crypto only.
// The connection secret is `whsec_` + base64 of the key. A signature is `v1,` + base64 HMAC-SHA256 of
// `{webhook-id}.{webhook-timestamp}.{body}`; the header may hold several, separated by spaces.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/** Fulfillment Rail refuses a timestamp further than this from its clock, and so should you. */
const TOLERANCE_SECONDS = 5 * 60;

function keyOf(secret) {
  if (!/^whsec_[A-Za-z0-9+/]+=*$/.test(secret)) throw new Error('The secret must be whsec_ followed by base64 (the one shown when the clinic connected you).');
  return Buffer.from(secret.slice('whsec_'.length), 'base64');
}

function signature(key, id, timestamp, body) {
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** Headers for a request you send (a status callback). */
export function signedHeaders(secret, body, id = `msg_${randomUUID()}`, at = new Date()) {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature(keyOf(secret), id, timestamp, body)}` };
}

/**
 * Whether a request Fulfillment Rail sent you is genuine: its signature verifies over the raw body exactly as
 * received (before any JSON parsing), and its timestamp is recent (a replayed old request is refused).
 */
export function verify(secret, headers, rawBody, now = new Date()) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const header = headers['webhook-signature'];
  if (!id || !timestamp || !header) return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(now.getTime() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signature(keyOf(secret), id, timestamp, rawBody), 'base64');
  return header.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
