import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import { decode } from 'next-auth/jwt';
import { MODE_COOKIE } from '@/server/api/console-mode';
import { createContextFactory, type RequestState, type Services } from '@/server/api/context';
import { toEnvelope } from '@/server/api/envelope';
import { logFailedRequest } from '@/server/api/failure-log';
import { appRouter } from '@/server/api/root';
import { trpcRequestId } from '@/server/api/trpc';

export const TRPC_PREFIX = '/api/trpc/';
/** The console's link sends this on every call: a custom header no cross-site form or simple request can carry. */
export const CONSOLE_SOURCE_HEADER = 'x-trpc-source';
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?next-auth\.session-token(\.\d+)?=([^;]*)/g;
const MODE_IN_COOKIES = new RegExp(`(?:^|;\\s*)${MODE_COOKIE}=(live|sandbox)(?:;|$)`);

/**
 * The console's data path (DESIGN decision 30): the same router, context, credentials, scopes, rate limits and
 * idempotency as /v1, in tRPC's own framing with batching. A call carries `Authorization: Bearer` as on /v1,
 * or, from the console, the session in next-auth's HTTP-only cookie, so the access token never reaches
 * page scripts.
 */
export function createTrpcEndpoint(services: Services) {
  const createContext = createContextFactory(services, 'trpc');
  return async function serveTrpc(req: IncomingMessage, res: ServerResponse, state: RequestState): Promise<void> {
    if (!req.headers.authorization) await useConsoleSession(req, services.auth.consoleSecret);
    await trpcRequestId.run(state.requestId, () => nodeHTTPRequestHandler({
      router: appRouter,
      req,
      res,
      path: decodeURIComponent(state.path.slice(TRPC_PREFIX.length)),
      maxBodySize: services.config.MAX_BODY_BYTES,
      createContext: ({ req: r }) => createContext({ req: r }),
      responseMeta: ({ errors, info }) => {
        const headers = { ...state.headers };
        if (!errors.length) return { headers };
        const statuses = errors.map((e) => toEnvelope(e, state.requestId).status);
        const single = (info?.calls.length ?? 1) <= 1 || new Set(statuses).size === 1;
        return { status: single && errors.length === (info?.calls.length ?? 1) ? statuses[0] : 207, headers };
      },
      onError: ({ error, path }) => {
        logFailedRequest(toEnvelope(error, state.requestId), error, { requestId: state.requestId, procedure: path });
      },
    }));
  };
}

/** Turns the console's session cookie into the Bearer credential /v1 takes, and its mode cookie into X-Mode. */
async function useConsoleSession(req: IncomingMessage, secret: string): Promise<void> {
  // The cookie rides along on any request the browser sends; only the console's own calls may use it (CSRF).
  if (req.headers[CONSOLE_SOURCE_HEADER] !== 'console' || req.headers['sec-fetch-site'] === 'cross-site') return;
  const cookie = req.headers.cookie ?? '';
  const token = await decode({ token: sessionCookieValue(cookie), secret }).catch(() => null);
  if (typeof token?.accessToken !== 'string') return;
  req.headers.authorization = `Bearer ${token.accessToken}`;
  req.headers['x-mode'] ??= MODE_IN_COOKIES.exec(cookie)?.[1];
}

/** next-auth writes one cookie, or `name.0`, `name.1`, … when it is large; either is reassembled here. */
function sessionCookieValue(cookie: string): string | undefined {
  const parts = [...cookie.matchAll(SESSION_COOKIE)].map((m) => ({ chunk: m[1] ? Number(m[1].slice(1)) : -1, value: m[2] }));
  if (!parts.length) return undefined;
  const whole = parts.find((p) => p.chunk === -1);
  return whole ? whole.value : parts.sort((a, b) => a.chunk - b.chunk).map((p) => p.value).join('');
}
