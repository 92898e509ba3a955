import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Services } from '@/server/api/context';
import { findActiveEmbedKey } from '@/server/domain/embed/keys';
import { originAllowed, originOf } from '@/server/domain/embed/origins';
import { framedPageCsp, unframedPageCsp } from './security-headers';

/**
 * Set on the request handed to Next.js for `/embed/frame` when the page that frames it (the Referer's origin,
 * which the widget sends with `referrerpolicy=origin`) is one the key allows: the frame posts its messages to
 * that origin only. Whatever a client sends under this name is dropped first.
 */
export const EMBED_PARENT_HEADER = 'x-fr-embed-parent';
export const FRAME_PATH = '/embed/frame';
const FLOW_PAGE = /^\/f\/([^/]+)\/?$/;

/** The embed key a framable page is addressed by, '' when it names none, undefined for any other page. */
export function framedKeyOf(url: URL): string | undefined {
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

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The CSP of a framable page (null for other pages): `frame-ancestors` is 'self' plus the key's allowed origins
 * (an unknown or revoked key: 'self' only; the page itself answers 404). The nonce goes on the request, where
 * Next.js looks for it.
 */
export async function framedPagePolicy(req: IncomingMessage, url: URL, services: Services): Promise<string | null> {
  delete req.headers['content-security-policy'];
  delete req.headers['content-security-policy-report-only'];
  delete req.headers[EMBED_PARENT_HEADER];
  const keyId = framedKeyOf(url);
  if (keyId === undefined) return null;
  const key = await findActiveEmbedKey(services.database.db, keyId);
  const allowed = key?.allowedOrigins ?? [];
  const csp = framedPageCsp(randomBytes(16).toString('base64'), allowed);
  req.headers['content-security-policy'] = csp;
  if (url.pathname === FRAME_PATH && key) {
    const parent = originOf(header(req.headers.referer));
    if (parent && originAllowed({ origin: parent }, allowed, services.auth.publicUrl)) req.headers[EMBED_PARENT_HEADER] = parent;
  }
  return csp;
}

const HOSTED_INTAKE_PAGE = /^\/i\/[^/]+\/?$/;

/**
 * `/i/{token}`, the one-time hosted intake page: the flow pages' nonce policy (scripts only with this response's
 * nonce, nothing from elsewhere), framed by no one. Null for any other page. Call after framedPagePolicy, which
 * drops whatever CSP the client sent.
 */
export function hostedIntakePolicy(req: IncomingMessage, url: URL): string | null {
  if (!HOSTED_INTAKE_PAGE.test(url.pathname)) return null;
  const csp = unframedPageCsp(randomBytes(16).toString('base64'));
  req.headers['content-security-policy'] = csp;
  return csp;
}
