/**
 * Response headers a browser needs to protect the console and the API's JSON. Pages get a CSP that stops
 * framing (clickjacking of the approval queue), base-tag and plugin injection and foreign form targets; it
 * leaves scripts alone, because Next.js's inline bootstrap scripts would need a per-request nonce.
 * Hosted flow pages, which clinics frame, replace the page CSP and X-Frame-Options with their own.
 */
export const PAGE_CSP = "frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'";
// API responses are data, never documents: nothing in them may load or be framed.
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";
// Documents that hold nothing of a clinic's and that tools may cache.
const PUBLIC_API_DOCUMENTS = new Set(['/openapi.json', '/certificates/jwks.json', '/pharmacy-protocol/openapi.json']);

/**
 * Patients' pages that clinics frame (`/f/{embedKey}`, `/embed/frame`): nothing loads from anywhere but this
 * service, scripts run only with this response's nonce (Next.js reads it from the request's CSP header and puts
 * it on its own scripts; 'strict-dynamic' lets them load the page's chunks), and only the key's allowed origins
 * (already checked to be plain `scheme://host[:port]` or `https://*.domain` when the key was written) and the
 * service itself may frame them.
 */
export function framedPageCsp(nonce: string, frameAncestors: readonly string[]): string {
  return nonceCsp(nonce, ["'self'", ...frameAncestors].join(' '));
}

/** The same policy for a patient's page no one may frame (`/i/{token}`, a one-time intake link). */
export function unframedPageCsp(nonce: string): string {
  return nonceCsp(nonce, "'none'");
}

function nonceCsp(nonce: string, frameAncestors: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

export type HeaderMap = Record<string, string>;
export const HSTS = 'max-age=31536000; includeSubDomains';

export function createSecurityHeaders(publicUrl: string | undefined) {
  const common: HeaderMap = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    // Only a deployment that says it is served over https may pin browsers to https.
    ...(publicUrl?.startsWith('https://') ? { 'Strict-Transport-Security': HSTS } : {}),
  };
  const publicApi: HeaderMap = { ...common, 'Content-Security-Policy': API_CSP };
  const privateApi: HeaderMap = { ...publicApi, 'Cache-Control': 'no-store' };
  return {
    page: { ...common, 'Content-Security-Policy': PAGE_CSP, 'X-Frame-Options': 'DENY' } as HeaderMap,
    /** A framable patient page: its own CSP, no X-Frame-Options (frame-ancestors decides), never cached. */
    framed: (csp: string): HeaderMap => ({ ...common, 'Content-Security-Policy': csp, 'Cache-Control': 'no-store' }),
    /** A patient's page under a nonce policy that no one may frame, never cached. */
    unframed: (csp: string): HeaderMap => ({ ...common, 'Content-Security-Policy': csp, 'X-Frame-Options': 'DENY', 'Cache-Control': 'no-store' }),
    /** `apiPath` is the path after /v1; every response that can carry PHI must stay out of every cache. */
    api: (apiPath: string): HeaderMap => (PUBLIC_API_DOCUMENTS.has(apiPath) ? publicApi : privateApi),
  };
}

export function setHeaders(res: { setHeader(name: string, value: string): unknown }, headers: HeaderMap): void {
  // for…in, not Object.entries: no array of pairs per response (every response passes here).
  for (const name in headers) res.setHeader(name, headers[name]!);
}
