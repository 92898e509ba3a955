import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WIDGET_VERSION } from '@/server/domain/embed/widget-version';
import { AppError } from '@/server/lib/errors';
import { widgetSource, type WidgetMode } from './embed-widget-source';

/** `/embed/v1/…` (WIDGET_VERSION) never changes behaviour, so browsers may keep it a week. */
const VERSIONED_CACHE = 'public, max-age=604800, stale-while-revalidate=86400';
// The unversioned address follows the newest major version, so caches must come back soon.
const UNVERSIONED_CACHE = 'public, max-age=300';

interface Asset {
  body: string;
  etag: string;
  cacheControl: string;
}

function asset(mode: WidgetMode, versioned: boolean): Asset {
  const body = widgetSource(mode, WIDGET_VERSION);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, etag, cacheControl: versioned ? VERSIONED_CACHE : UNVERSIONED_CACHE };
}

const ASSETS = new Map<string, Asset>([
  ['/embed/flow.js', asset('flow', false)],
  ['/embed/intake.js', asset('intake', false)],
  [`/embed/v${WIDGET_VERSION}/flow.js`, asset('flow', true)],
  [`/embed/v${WIDGET_VERSION}/intake.js`, asset('intake', true)],
]);

export const isWidgetPath = (pathname: string) => ASSETS.has(pathname);

/** GET/HEAD of a widget script: any site may load it (it is the point), with an ETag for revalidation. */
export function serveWidget(req: IncomingMessage, res: ServerResponse, pathname: string): void {
  const found = ASSETS.get(pathname)!;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new AppError('validation_error', 'method_not_allowed', 405, `${req.method} is not allowed on ${pathname}.`, undefined, { Allow: 'GET, HEAD' });
  }
  res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
  res.setHeader('Cache-Control', found.cacheControl);
  res.setHeader('ETag', found.etag);
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.headers['if-none-match'] === found.etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Length', Buffer.byteLength(found.body));
  res.statusCode = 200;
  res.end(req.method === 'HEAD' ? undefined : found.body);
}
