import cluster from 'node:cluster';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { toEnvelope } from '@/server/api/envelope';
import type { Config } from '@/server/lib/config';
import { safeEqual } from '@/server/lib/crypto';
import { AppError } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { logger } from '@/server/lib/logger';
import { CLUSTER_ANSWER_MS, metrics } from '@/server/lib/metrics';
import { requestTarget } from './request-target';

export const METRICS_PATH = '/metrics';
export const METRICS_REQUEST = 'fr:metrics-request';
export const METRICS_RESPONSE = 'fr:metrics-response';
// The primary gives each process CLUSTER_ANSWER_MS (this one included) before it answers without it.
const IPC_TIMEOUT_MS = CLUSTER_ANSWER_MS + 2_000;

interface MetricsReply {
  type: typeof METRICS_RESPONSE;
  id: string;
  body?: string;
  contentType?: string;
  error?: string;
}

/**
 * The scrape: this process's registry, or under `npm start` with WEB_CONCURRENCY > 1 the cluster's, merged by
 * the primary from the processes that listen and answer in time (server/cluster/cluster-metrics.ts: counters and
 * histograms summed, database-wide gauges kept once, `fr_cluster_processes` saying how many it covers), whichever
 * process the round-robin handed the scrape to. It fails (503) only when no process answered.
 */
export async function scrape(): Promise<{ body: string; contentType: string }> {
  if (!cluster.isWorker || !process.send) {
    const { registry } = metrics();
    return { body: await registry.metrics(), contentType: registry.contentType };
  }
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const onMessage = (msg: MetricsReply) => {
      if (msg?.type !== METRICS_RESPONSE || msg.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      if (msg.error !== undefined || msg.body === undefined) reject(new Error(`cluster metrics: ${msg.error ?? 'no body'}`));
      else resolve({ body: msg.body, contentType: msg.contentType ?? 'text/plain' });
    };
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      reject(new Error('cluster metrics: the primary did not answer'));
    }, IPC_TIMEOUT_MS);
    process.on('message', onMessage);
    process.send!({ type: METRICS_REQUEST, id });
  });
}

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

/**
 * METRICS_PORT: a listener of its own, on METRICS_HOST (127.0.0.1 unless set), answering GET /metrics without
 * a token; what reaches that address is the operator's to decide. Under a cluster the primary holds it.
 */
export function startMetricsListener(config: Config, source: () => Promise<{ body: string; contentType: string }> = scrape): http.Server | undefined {
  if (!config.METRICS_PORT) return undefined;
  const server = http.createServer((req, res) => {
    // A target the URL parser refuses (`//`) is no path at all: 404 like any other, never a throw.
    const path = requestTarget(req.url)?.pathname;
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.statusCode = 404;
      return res.end();
    }
    source()
      .then(({ body, contentType }) => {
        res.setHeader('Content-Type', contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.end(body);
      })
      .catch((err: unknown) => {
        logger.error({ err }, 'metrics scrape failed');
        res.statusCode = 503;
        res.end();
      });
  });
  server.listen(config.METRICS_PORT, config.METRICS_HOST, () => logger.info({ port: config.METRICS_PORT, host: config.METRICS_HOST }, 'metrics listening'));
  return server;
}
