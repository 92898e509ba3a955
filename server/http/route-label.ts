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

// No cache by path: paths carry ids (a flow session's every request is a new path, so a cache only churned),
// and the table tries only the few routes of the path's bucket.
let table: RouteTable | undefined;

/**
 * The `route` label of a request: the operation's path template (`/v1/orders/{id}/approve`), never the path
 * itself, so a label holds no id, key or name and the set of labels stays small. Pages and unknown paths
 * fall into a few fixed buckets. `matchedTemplate`: the template the app matched the request to, when it did
 * (server/http/app.ts), so a /v1 path is not matched twice.
 */
export function routeLabel(method: string, pathname: string, matchedTemplate?: string): string {
  if (pathname === '/v1' || pathname.startsWith('/v1/')) return matchedTemplate ? `/v1${matchedTemplate}` : v1Label(method, pathname.slice(3) || '/');
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
  const matched = table.matching(apiPath);
  const route = matched.find((r) => r.method === method) ?? matched[0];
  return route ? `/v1${route.path}` : 'unmatched';
}
