import { randomFillSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Services } from '@/server/api/context';
import type { ServingEmbedKey } from '@/server/domain/embed/keys';
import { originAllowed, originOf } from '@/server/domain/embed/origins';
import type { CacheablePage } from './page-cache';
import { framedPageCsp, unframedPageCsp } from './security-headers';
import type { RequestTarget } from './request-target';
import { EMBED_PARENT_HEADER, FRAME_PATH } from '@/server/lib/embed-addresses';

const FLOW_PAGE = /^\/f\/([^/]+)\/?$/;

/** The embed key a framable page is addressed by, '' when it names none, undefined for any other page. */
export function framedKeyOf(url: RequestTarget): string | undefined {
  const m = FLOW_PAGE.exec(url.pathname);
  if (m) {
    try {
      return decodeURIComponent(m[1]);
    } catch {
      return '';
    }
  }
  return url.pathname === FRAME_PATH ? (url.searchParams.get('k') ?? '') : undefined;
}

// CSP nonces of 16 random bytes, drawn from a buffer the CSPRNG refills 256 nonces at a time: a cached page view
// otherwise spends more on asking for 16 bytes than on the rest of its policy.
const NONCE_BYTES = 16;
const NONCES_PER_FILL = 256;
const noncePool = Buffer.alloc(NONCE_BYTES * NONCES_PER_FILL);
let noncesUsed = NONCES_PER_FILL;
function newNonce(): string {
  if (noncesUsed === NONCES_PER_FILL) {
    randomFillSync(noncePool);
    noncesUsed = 0;
  }
  const at = noncesUsed++ * NONCE_BYTES;
  return noncePool.toString('base64', at, at + NONCE_BYTES);
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** A framable page's response facts: its CSP (with this response's nonce) and, when it may come from the render cache, what names its bytes. */
export interface FramedPage {
  /** The embed key the page is addressed by ('' when it names none). */
  embedKey: string;
  csp: string;
  nonce: string;
  cacheable: CacheablePage | null;
}

// The query parameters each page reads (the rest, such as a campaign's click ids, change nothing it renders).
const PAGE_PARAMS = new Set(['cid', 'utm_campaign']);
const FRAME_PARAMS = new Set(['k', 'q', 't', 'theme', 'shop', 'cid']);
// Requests Next.js answers with something else than the page's HTML (client navigations, prefetches, actions).
const NOT_A_DOCUMENT = ['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch', 'next-action'];

/**
 * The CSP of a framable page (null for other pages): `frame-ancestors` is 'self' plus the key's allowed origins
 * (an unknown or revoked key, or one serving no published flow: 'self' only; the page itself answers 404). The
 * nonce goes on the request, where Next.js looks for it. The key comes from the key cache: one lookup in
 * memory per view.
 */
export async function framedPagePolicy(req: IncomingMessage, url: RequestTarget, services: Services): Promise<FramedPage | null> {
  delete req.headers['content-security-policy'];
  delete req.headers['content-security-policy-report-only'];
  delete req.headers[EMBED_PARENT_HEADER];
  const keyId = framedKeyOf(url);
  if (keyId === undefined) return null;
  const generation = services.servingKeys.generation;
  const key = await services.servingKeys.find(services.database.db, keyId);
  const allowed = key?.allowedOrigins ?? [];
  const nonce = newNonce();
  const csp = framedPageCsp(nonce, allowed);
  req.headers['content-security-policy'] = csp;
  let parent: string | null = null;
  if (url.pathname === FRAME_PATH && key) {
    const referrer = originOf(header(req.headers.referer));
    if (referrer && originAllowed({ origin: referrer }, allowed, services.auth.publicUrl)) req.headers[EMBED_PARENT_HEADER] = parent = referrer;
  }
  return { embedKey: keyId, csp, nonce, cacheable: key ? cacheablePage(req, url, key, parent, generation) : null };
}

/**
 * Whether this view of a flow may come from the render cache, and under which name: everything the page's
 * bytes depend on (the key, the version it serves, its mode, the parameters the page reads, the framing
 * page's origin or the refusal to be framed). The intake frame (t=intake) is rendered each time: what it shows
 * is the questionnaire's approved version, which the key does not name.
 */
function cacheablePage(req: IncomingMessage, url: RequestTarget, key: ServingEmbedKey, parent: string | null, generation: number): CacheablePage | null {
  if (req.method !== 'GET' || !key.activeVersionId || NOT_A_DOCUMENT.some((h) => h in req.headers)) return null;
  const frame = url.pathname === FRAME_PATH;
  if (frame && !['flow', null].includes(url.searchParams.get('t'))) return null;
  const kept = [...url.searchParams].filter(([name]) => (frame ? FRAME_PARAMS : PAGE_PARAMS).has(name));
  const query = new URLSearchParams(kept).toString();
  const framing = frame ? (parent ?? (header(req.headers['sec-fetch-dest']) === 'iframe' ? 'refused' : 'top')) : '';
  const path = `${url.pathname}${query ? `?${query}` : ''}`;
  return { name: [key.id, key.activeVersionId, key.livemode, framing, path].join(' '), tenantId: key.tenantId, generation, path };
}

const HOSTED_INTAKE_PAGE = /^\/i\/[^/]+\/?$/;
// The patient portal (DESIGN decision 39): its sign-in, order and link pages, never framed (they hold PHI).
const PORTAL_PAGE = /^\/p\/[^/]+(\/.*)?$/;

/**
 * `/i/{token}`, the one-time hosted intake page, and the patient portal's pages `/p/{embedKey}/…`: the flow pages'
 * nonce policy (scripts only with this response's nonce, nothing from elsewhere), framed by no one, never cached.
 * Null for any other page; `portal` says which of the two it is. Call after framedPagePolicy, which drops whatever
 * CSP the client sent.
 */
export function hostedIntakePolicy(req: IncomingMessage, url: RequestTarget): { csp: string; nonce: string; portal: boolean } | null {
  const portal = PORTAL_PAGE.test(url.pathname);
  if (!portal && !HOSTED_INTAKE_PAGE.test(url.pathname)) return null;
  const nonce = newNonce();
  const csp = unframedPageCsp(nonce);
  req.headers['content-security-policy'] = csp;
  return { csp, nonce, portal };
}
