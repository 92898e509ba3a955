import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestState } from './context';

/** Set by the custom server (overwriting any client value) on requests for Next.js; forwarded by the console. */
export const FORWARDED_CLIENT_IP = 'x-fr-client-ip';
export const FORWARD_PROOF = 'x-fr-console-proof';

/** Proves a /v1 call comes from the console's server side: derived from the secret both share (`auth.consoleSecret`). */
export function consoleForwardProof(secret: string): string {
  return createHmac('sha256', secret).update('fulfillment-rail console client-ip v1').digest('base64url');
}

/**
 * The client's address as the custom server resolved it (the peer, or with TRUST_PROXY the address the trusted
 * hops forwarded); no other forwarded header is trusted, so a client cannot pick its own limit bucket. The one
 * exception is the console: its sign-in calls reach /v1 over loopback, and carry the browser's address
 * (as the custom server saw it) with a proof only the server side of this deployment can compute.
 */
export function clientIp(req: IncomingMessage, secret: string): string {
  const peer = (req as { frState?: RequestState }).frState?.clientAddress ?? req.socket.remoteAddress ?? 'unknown';
  const forwarded = req.headers[FORWARDED_CLIENT_IP];
  const proof = req.headers[FORWARD_PROOF];
  if (typeof forwarded !== 'string' || !forwarded || typeof proof !== 'string' || !secret) return peer;
  const expected = Buffer.from(consoleForwardProof(secret));
  const given = Buffer.from(proof);
  return given.length === expected.length && timingSafeEqual(given, expected) ? forwarded.slice(0, 64) : peer;
}
