import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestState } from '@/server/api/context';
import type { Config } from '@/server/lib/config';
import { metrics } from '@/server/lib/metrics';
import { isDraining, requestsInFlight, trackRequest } from './lifecycle';
import { METRICS_PATH } from '@/server/lib/metrics-scrape';
import { serveMetrics } from './metrics-endpoint';
import { methodLabel, routeLabel } from './route-label';

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * What every process of the service puts around the app (server/http/app.ts): the request counts and
 * latencies by route template and status, the in-flight count the graceful shutdown waits on, `Connection:
 * close` while draining (so a keep-alive client takes its next request to another process), and GET /metrics.
 */
export function observe(app: Handler, config: Config): Handler {
  const m = metrics();
  m.probes.inFlight = requestsInFlight;
  return function observed(req, res) {
    const started = process.hrtime.bigint();
    // Read now: the app rewrites req.url on its way (/v1 is cut off before trpc-to-openapi sees it).
    const pathname = pathOf(req.url);
    const method = req.method ?? 'GET';
    const tracked = trackRequest();
    // One listener for the in-flight count and the metrics (each listener costs per request).
    res.once('close', () => {
      tracked.done();
      // A response cut before it finished (client gone, drain over) is counted under status 0.
      const status = res.writableFinished ? String(res.statusCode) : '0';
      const labels = { method: methodLabel(method), route: routeLabel(method, pathname, (req as { frState?: RequestState }).frState?.routeTemplate), status };
      m.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    if (isDraining()) res.setHeader('Connection', 'close');
    if (pathname === METRICS_PATH) return serveMetrics(req, res, config);
    return app(req, res);
  };
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  return q === -1 ? raw : raw.slice(0, q);
}
