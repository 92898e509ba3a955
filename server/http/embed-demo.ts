import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '@/server/api/context';
import { DEMO_PATH, demoPage } from '@/server/domain/embed/demo-page';
import { AppError } from '@/server/lib/errors';
import type { RequestTarget } from './request-target';

export { DEMO_PATH };

/** `/embed/demo`: GET or HEAD only, never cached; the page itself is the embed area's (server/domain/embed/demo-page.ts). */
export async function serveEmbedDemo(req: IncomingMessage, res: ServerResponse, url: RequestTarget, services: Services): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new AppError('validation_error', 'method_not_allowed', 405, `${req.method} is not allowed on ${DEMO_PATH}.`, undefined, { Allow: 'GET, HEAD' });
  }
  const { status, html } = await demoPage(services.database.db, url.searchParams);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.statusCode = status;
  res.end(html);
}
