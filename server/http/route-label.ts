import { LRUCache } from 'lru-cache';
import { EVENT_STREAM_PATH } from '@/server/api/openapi';
import { appRouter } from '@/server/api/root';
import { buildRouteTable, type RouteTable } from '@/server/api/route-table';
import { isBillingSimulatedPath } from './billing-simulated';
import { DEMO_PATH } from './embed-demo';
import { isWidgetPath } from './embed-widgets';
import { HEALTH_PATHS } from './health';
import { TRPC_PREFIX } from './trpc-endpoint';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The `method` label: one of the HTTP methods, else `other` (a client may send any token). */
export const methodLabel = (method: string | undefined) => (method && METHODS.has(method) ? method : 'other');

let table: RouteTable | undefined;
// Paths carry ids, so the cache is bounded; a hit skips the route table's regex scan.
const cache = new LRUCache<string, string>({ max: 5_000 });

/**
 * The `route` label of a request: the operation's path template (`/v1/orders/{id}/approve`), never the path
 * itself, so a label holds no id, key or name and the set of labels stays small. Pages and unknown paths
 * fall into a few fixed buckets.
 */
export function routeLabel(method: string, pathname: string): string {
  if (pathname === '/v1' || pathname.startsWith('/v1/')) {
    const key = `${method} ${pathname}`;
    let label = cache.get(key);
    if (label === undefined) {
      label = v1Label(method, pathname.slice(3) || '/');
      cache.set(key, label);
    }
    return label;
  }
  if (pathname.startsWith(TRPC_PREFIX)) return '/api/trpc';
  if (HEALTH_PATHS.has(pathname) || pathname === '/metrics' || pathname === DEMO_PATH) return pathname;
  if (isWidgetPath(pathname)) return 'widget';
  if (isBillingSimulatedPath(pathname)) return 'billing-simulated';
  if (pathname.startsWith('/_next/')) return 'next-asset';
  if (pathname.startsWith('/f/')) return '/f/{embedKey}';
  if (pathname.startsWith('/i/')) return '/i/{token}';
  return 'page';
}

function v1Label(method: string, apiPath: string): string {
  if (apiPath === '/openapi.json' || apiPath === EVENT_STREAM_PATH) return `/v1${apiPath}`;
  table ??= buildRouteTable(appRouter);
  const route = table.find(method, apiPath) ?? table.find(table.methodsFor(apiPath)[0] ?? '', apiPath);
  return route ? `/v1${route.path}` : 'unmatched';
}
