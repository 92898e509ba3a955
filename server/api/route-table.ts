import { forEachOpenApiProcedure, getPathRegExp, normalizePath } from 'trpc-to-openapi';
import type { ProcedureMeta } from './trpc';
import { procedureInputs, routerProcedures } from './dependency-internals';
import type { AppRouter } from './root';

export interface RouteInfo {
  method: string;
  path: string;
  procedurePath: string;
  meta: ProcedureMeta;
  regex: RegExp;
  /** Zod input parsers of the procedure (body or query schema). */
  inputs: unknown[];
}

/** Every /v1 operation the router serves, for 404/405 answers and per-procedure response metadata. */
export function buildRouteTable(router: AppRouter) {
  const routes: RouteInfo[] = [];
  forEachOpenApiProcedure(routerProcedures(router) as never, ({ path, meta, procedure }) => {
    const openapi = meta.openapi!;
    const p = normalizePath(openapi.path);
    routes.push({ method: openapi.method, path: p, procedurePath: path, meta: meta as ProcedureMeta, regex: getPathRegExp(p), inputs: procedureInputs(procedure) });
  });
  const byProcedure = new Map(routes.map((r) => [r.procedurePath, r]));
  const buckets = bucketsOf(routes);
  /** The operations whose path matches, in the router's order: only the routes of the path's bucket are tried. */
  const matching = (path: string): RouteInfo[] => (buckets.get(bucketOf(path)) ?? NONE).filter((r) => r.regex.test(path));
  return {
    routes,
    metaOf: (procedurePath: string | undefined) => (procedurePath ? byProcedure.get(procedurePath)?.meta : undefined),
    matching,
  };
}

/** The methods allowed on a path, from its matched operations; empty when none matched. */
export const methodsOf = (matched: RouteInfo[]): string[] => [...new Set(matched.map((r) => r.method))];

const NONE: RouteInfo[] = [];
/**
 * A path's bucket: its number of segments (a parameter never spans a `/`) and its first segment, lower-cased
 * as the routes' regexes match case-insensitively. Trying every route's regex on every request was 2% of an
 * authenticated read's CPU, and it ran twice (the 405 check, then the match).
 */
function bucketOf(path: string): string {
  const parts = path.split('/');
  return `${parts.length} ${(parts[1] ?? '').toLowerCase()}`;
}

/** Routes by bucket, in the router's order. No operation's path starts with a parameter (it would belong to every bucket). */
function bucketsOf(routes: RouteInfo[]): Map<string, RouteInfo[]> {
  const buckets = new Map<string, RouteInfo[]>();
  for (const r of routes) {
    if (r.path.startsWith('/{')) throw new Error(`Route table: ${r.path} starts with a parameter; bucketOf cannot place it.`);
    const key = bucketOf(r.path);
    buckets.set(key, [...(buckets.get(key) ?? []), r]);
  }
  return buckets;
}
export type RouteTable = ReturnType<typeof buildRouteTable>;
