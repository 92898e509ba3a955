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
const PUBLIC_API_DOCUMENTS = new Set(['/openapi.json', '/certificates/jwks.json']);

export type HeaderMap = Record<string, string>;

export function createSecurityHeaders(publicUrl: string | undefined) {
  const common: HeaderMap = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    // Only a deployment that says it is served over https may pin browsers to https.
    ...(publicUrl?.startsWith('https://') ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
  const publicApi: HeaderMap = { ...common, 'Content-Security-Policy': API_CSP };
  const privateApi: HeaderMap = { ...publicApi, 'Cache-Control': 'no-store' };
  return {
    page: { ...common, 'Content-Security-Policy': PAGE_CSP, 'X-Frame-Options': 'DENY' } as HeaderMap,
    /** `apiPath` is the path after /v1; every response that can carry PHI must stay out of every cache. */
    api: (apiPath: string): HeaderMap => (PUBLIC_API_DOCUMENTS.has(apiPath) ? publicApi : privateApi),
  };
}

export function setHeaders(res: { setHeader(name: string, value: string): unknown }, headers: HeaderMap): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}
