import { forEachOpenApiProcedure, getPathRegExp, normalizePath } from 'trpc-to-openapi';
import type { ProcedureMeta } from './trpc';
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
  forEachOpenApiProcedure(router._def.procedures as never, ({ path, meta, procedure }) => {
    const openapi = meta.openapi!;
    const p = normalizePath(openapi.path);
    routes.push({ method: openapi.method, path: p, procedurePath: path, meta: meta as ProcedureMeta, regex: getPathRegExp(p), inputs: (procedure as { _def: { inputs: unknown[] } })._def.inputs });
  });
  const byProcedure = new Map(routes.map((r) => [r.procedurePath, r]));
  return {
    routes,
    metaOf: (procedurePath: string | undefined) => (procedurePath ? byProcedure.get(procedurePath)?.meta : undefined),
    find: (method: string, path: string) => routes.find((r) => r.method === method && r.regex.test(path)),
    /** Methods allowed on a path; empty when no operation has that path. */
    methodsFor(path: string): string[] {
      return [...new Set(routes.filter((r) => r.regex.test(path)).map((r) => r.method))];
    },
  };
}
export type RouteTable = ReturnType<typeof buildRouteTable>;
