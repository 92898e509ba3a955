import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '@/server/api/context';
import { unsubscribe, UNSUBSCRIBE_PAGE_CSP } from '@/server/domain/notices/unsubscribe';
import { AppError } from '@/server/lib/errors';
import type { RequestTarget } from './request-target';

export const UNSUBSCRIBE_PATH = '/unsubscribe';

/**
 * `/unsubscribe?token=…`: the signed opt-out link of every patient notice (DESIGN decision 41). GET opts out at
 * once and says so; HEAD (a mail scanner checking the link) only answers. The token is the page's bearer secret,
 * so it is never sent on as a Referer and the page is never cached.
 */
export async function serveUnsubscribe(req: IncomingMessage, res: ServerResponse, url: RequestTarget, services: Services): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    throw new AppError('validation_error', 'method_not_allowed', 405, `${method} is not allowed on ${UNSUBSCRIBE_PATH}.`, undefined, { Allow: 'GET, HEAD' });
  }
  res.setHeader('Content-Security-Policy', UNSUBSCRIBE_PAGE_CSP);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  const answer = await unsubscribe(services.database.db, services.auth.secret, url.searchParams.get('token'), method === 'GET');
  res.statusCode = answer.status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(method === 'HEAD' ? undefined : answer.html);
}
