import type { IncomingMessage, ServerResponse } from 'node:http';
import { toEnvelope } from '@/server/api/envelope';
import type { Config } from '@/server/lib/config';
import { safeEqual } from '@/server/lib/crypto';
import { AppError } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { logger } from '@/server/lib/logger';
import { scrape } from '@/server/lib/metrics-scrape';

// GET /metrics on the service's port. The scrape and the METRICS_PORT listener are in server/lib/metrics-scrape.ts:
// the worker process and the cluster's primary serve them too, and import nothing of the custom server.

async function answer(res: ServerResponse) {
  try {
    const { body, contentType } = await scrape();
    res.statusCode = 200;
    res.setHeader('Content-Type', contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(body);
  } catch (err) {
    logger.error({ err }, 'metrics scrape failed');
    res.statusCode = 503;
    res.setHeader('Content-Type', 'text/plain');
    res.end('metrics unavailable\n');
  }
}

function refuse(res: ServerResponse, error: AppError) {
  const envelope = toEnvelope(error, String(res.getHeader('X-Request-Id')));
  res.statusCode = envelope.status;
  res.setHeader('Content-Type', 'application/json');
  for (const [k, v] of Object.entries(envelope.headers)) res.setHeader(k, v);
  res.end(JSON.stringify(envelope.body));
}

/**
 * GET /metrics on the service's own port: only with `Authorization: Bearer <METRICS_TOKEN>`. Without a
 * METRICS_TOKEN configured the path does not exist there (404, as any unknown URL): metrics are not public.
 */
export async function serveMetrics(req: IncomingMessage, res: ServerResponse, config: Config): Promise<void> {
  // Every answer of the service's port carries a request id, this one too.
  res.setHeader('X-Request-Id', newId('request'));
  if (!config.METRICS_TOKEN) return refuse(res, new AppError('not_found', 'route_not_found', 404, 'Unrecognized request URL.'));
  const auth = req.headers.authorization ?? '';
  const token = auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
  if (!token || !safeEqual(token, config.METRICS_TOKEN)) {
    return refuse(res, new AppError('authentication_error', 'invalid_api_key', 401, 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.', undefined, { 'WWW-Authenticate': 'Bearer' }));
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return refuse(res, new AppError('validation_error', 'method_not_allowed', 405, `${req.method} is not allowed on /metrics.`, undefined, { Allow: 'GET, HEAD' }));
  }
  await answer(res);
}
