import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderMap } from './security-headers';

/**
 * CORS for the patient-facing paths under /v1/public, which a clinic's own site calls from the browser.
 * The browser is told the request's own origin may read the answer; whether that origin may use the
 * embed key is decided per request by embedProcedure (403 `origin_not_allowed`). No credentials are
 * ever allowed, and every other /v1 path sends no CORS headers at all.
 */
export const isPublicPath = (apiPath: string) => apiPath.startsWith('/public/');

const EXPOSED = 'Retry-After, Idempotent-Replayed, X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';

export function corsHeaders(req: IncomingMessage): HeaderMap {
  const origin = req.headers.origin;
  const headers: HeaderMap = { Vary: 'Origin' };
  if (typeof origin === 'string' && origin && origin !== 'null') {
    headers['Access-Control-Allow-Origin'] = origin;
    headers['Access-Control-Expose-Headers'] = EXPOSED;
  }
  return headers;
}

/** The preflight of a public path: 204 with the methods the path serves and the headers a submission sends. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse, methods: string[]): void {
  res.statusCode = 204;
  if (typeof req.headers.origin === 'string' && req.headers.origin !== 'null') {
    res.setHeader('Access-Control-Allow-Methods', [...methods, 'OPTIONS'].join(', '));
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Idempotency-Key');
    res.setHeader('Access-Control-Max-Age', '600');
  }
  res.end();
}
