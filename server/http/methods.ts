import type { ServerResponse } from 'node:http';
import { AppError } from '@/server/lib/errors';

/**
 * Which methods each class of path outside /v1 serves (/v1 answers from its route table). Next.js and tRPC's
 * adapter were handed any method: TRACE reached tRPC's fetch adapter, whose `new Request()` refuses it, and
 * Next.js's router, and both answered 500 (issue 49, item 1). Everything not listed is refused here, before
 * either sees the request: OPTIONS with 204 and `Allow`, anything else with 405 and `Allow`.
 */
const PAGE_METHODS = ['GET', 'HEAD'];
// next-auth's route handler takes its sign-in, sign-out and CSRF posts.
const AUTH_ROUTE_METHODS = ['GET', 'HEAD', 'POST'];
// tRPC: queries are GET, mutations POST.
const TRPC_METHODS = ['GET', 'POST'];
/** What `OPTIONS *` lists: every method some path of this service serves. */
export const SERVER_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

export const pageMethods = (pathname: string): string[] => (pathname.startsWith('/api/auth/') ? AUTH_ROUTE_METHODS : PAGE_METHODS);
export const trpcMethods = (): string[] => TRPC_METHODS;

/**
 * True when the request's method is one the path serves. Otherwise the answer is written (OPTIONS) or thrown
 * (405, which the caller's error handler turns into the envelope), and the caller stops.
 */
export function allowMethod(method: string, allowed: string[], res: ServerResponse, label: string): boolean {
  if (allowed.includes(method)) return true;
  const allow = [...allowed, 'OPTIONS'].join(', ');
  if (method === 'OPTIONS') {
    res.statusCode = 204;
    res.setHeader('Allow', allow);
    res.end();
    return false;
  }
  throw new AppError('validation_error', 'method_not_allowed', 405, `${method} is not allowed on ${label}.`, undefined, { Allow: allow });
}
