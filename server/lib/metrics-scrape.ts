import cluster from 'node:cluster';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Config } from './config';
import { logger } from './logger';
import { CLUSTER_ANSWER_MS, metrics } from './metrics';

/*
 * The scrape and the METRICS_PORT listener that serves it, here at the bottom because three kinds of process
 * serve them: the web process (server/http), the worker process (server/jobs/main.ts) and the cluster's primary
 * (server/cluster). None of those may import another (docs/architecture.md, "Every edge between layers").
 */

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
 * process the round-robin handed the scrape to. It fails only when no process answered.
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

// The path of a request's target as `new URL(target, base)` reads it (what server/http/request-target.ts
// computes faster for the service's port); null for a target the parser refuses (`//`).
function pathOf(target: string | undefined): string | null {
  const raw = target ?? '/';
  return URL.canParse(raw, 'http://localhost') ? new URL(raw, 'http://localhost').pathname : null;
}

/**
 * METRICS_PORT: a listener of its own, on METRICS_HOST (127.0.0.1 unless set), answering GET /metrics without
 * a token; what reaches that address is the operator's to decide. Under a cluster the primary holds it.
 */
export function startMetricsListener(config: Config, source: () => Promise<{ body: string; contentType: string }> = scrape): http.Server | undefined {
  if (!config.METRICS_PORT) return undefined;
  const server = http.createServer((req, res) => {
    // A target the URL parser refuses (`//`) is no path at all: 404 like any other, never a throw.
    const path = pathOf(req.url);
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
