import type { IncomingMessage, ServerResponse } from 'node:http';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { FORWARDED_CLIENT_IP } from '@/server/api/client-ip';
import { createContextFactory, type RequestState, type Services } from '@/server/api/context';
import { buildOpenApiDocument } from '@/server/api/openapi';
import { appRouter } from '@/server/api/root';
import { buildRouteTable, methodsOf, type RouteInfo } from '@/server/api/route-table';
import { AppError } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { logger } from '@/server/lib/logger';
import { readJsonBody } from './body';
import { requestTarget } from './request-target';
import { callProcedure, directQuery, queryInput } from './procedure-call';
import { toEnvelope } from '@/server/api/envelope';
import { logFailedRequest } from '@/server/api/failure-log';
import { EVENT_STREAM_PATH, serveEventStream } from './event-stream';
import { isFhirPath } from '@/server/api/fhir-operations';
import { isFhirRequest, sendFhirError, serveFhir } from './fhir';
import { HEALTH_PATHS, serveHealth, type WorkerProbe } from './health';
import { createSecurityHeaders, HSTS, setHeaders, type HeaderMap } from './security-headers';
import { allowMethod, pageMethods, SERVER_METHODS, trpcMethods } from './methods';
import { createClientOrigin } from '@/server/lib/trust-proxy';
import { runForwardedHttps } from '@/server/lib/forwarded-https';
import { answerPreflight, corsHeaders, isPublicPath } from './cors';
import { createTrpcEndpoint, TRPC_PREFIX } from './trpc-endpoint';
import { isWidgetPath, serveWidget } from './embed-widgets';
import { DEMO_PATH, serveEmbedDemo } from './embed-demo';
import { framedPagePolicy, hostedIntakePolicy } from './framed-pages';
import { isPortalActionPath, servePortalAction, type PortalActions } from './portal-actions';
import { PATIENT_ASSET_PREFIX, servePatientAsset, type PatientPages } from './patient-pages';
import { createPageCache } from './page-cache';
import { isBillingSimulatedPath, serveBillingSimulated } from './billing-simulated';
import { serveUnsubscribe, UNSUBSCRIBE_PATH } from './unsubscribe';

type Req = IncomingMessage & { frState?: RequestState; body?: unknown; frCreateContext?: ContextFactory };
type ContextFactory = ReturnType<typeof createContextFactory>;
export type Fallback = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
export interface AppOptions {
  /** This process's worker, when RUN_WORKER runs one here; /readyz reports it. */
  worker?: WorkerProbe;
  /**
   * false: every /v1 operation through trpc-to-openapi's handler, none called directly (procedure-call.ts);
   * tests compare the two paths' answers with it.
   */
  directCalls?: boolean;
  /** The hosted flow page, the widget's frame and the portal's pages rendered without Next.js (not in development, as the render cache). */
  patientPages?: PatientPages;
  /** The patient portal's writes, `POST /p/{embedKey}/actions/{name}` (in every mode: the portal's pages call them in development too). */
  portalActions?: PortalActions;
}

/**
 * The one request handler of the service: `/v1/*` goes to the tRPC procedures, called directly
 * (procedure-call.ts: every operation with a body, and GETs whose input is text) or through trpc-to-openapi's
 * Node handler (the other GETs, for its query coercion), see docs/architecture.md; `/api/trpc/*` to the same
 * procedures in tRPC's framing for the console (never through Next.js); `/healthz` and `/readyz` are answered
 * here; everything else goes to `fallback` (Next.js).
 */
export function createApp(services: Services, fallback?: Fallback, opts: AppOptions = {}) {
  const { table, openapiJson, handler } = sharedRouting();
  const security = createSecurityHeaders(services.config.PUBLIC_URL);
  const serveTrpc = createTrpcEndpoint(services);
  const createContext = createContextFactory(services);
  // Not in development, where Next.js recompiles pages and their chunks under new names.
  const pages = services.config.NODE_ENV === 'development' ? null : createPageCache(services.servingKeys);
  const clientOrigin = createClientOrigin(services.config.TRUST_PROXY);

  function sendError(res: ServerResponse, thrown: unknown, state: RequestState) {
    if (isFhirRequest(state.path)) return sendFhirError(res, thrown, state);
    const envelope = toEnvelope(thrown, state.requestId);
    logFailedRequest(envelope, thrown, { requestId: state.requestId, method: state.method, path: state.path });
    res.statusCode = envelope.status;
    res.setHeader('Content-Type', 'application/json');
    for (const [k, v] of Object.entries({ ...state.headers, ...envelope.headers })) res.setHeader(k, v);
    res.end(JSON.stringify(envelope.body));
  }

  async function handleV1(req: Req, res: ServerResponse, state: RequestState, apiPath: string, search: URLSearchParams) {
    if (req.method === 'GET' && apiPath === '/openapi.json') {
      res.setHeader('Content-Type', 'application/json');
      res.end(openapiJson);
      return;
    }
    if (apiPath === EVENT_STREAM_PATH) return serveEventStream(req, res, services, state);
    if (isFhirPath(apiPath)) return serveFhir(req, res, services, state, apiPath, search);
    const matched = table.matching(apiPath);
    const allowed = methodsOf(matched);
    if (allowed.length === 0) throw new AppError('not_found', 'route_not_found', 404, `Unrecognized request URL (${req.method} /v1${apiPath}).`);
    // The operation of the request's method, found once; a 405 is labelled with the path's first (metrics).
    const own = matched.find((r) => r.method === req.method);
    state.routeTemplate = (own ?? matched[0]).path;
    if (isPublicPath(apiPath) && req.method === 'OPTIONS') return answerPreflight(req, res, allowed);
    if (!allowed.includes(req.method ?? '')) {
      throw new AppError('validation_error', 'method_not_allowed', 405, `${req.method} is not allowed on /v1${apiPath}.`, undefined, {
        Allow: allowed.join(', '),
      });
    }
    let route: RouteInfo | undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      route = own;
      const body = await readJsonBody(req, services.config.MAX_BODY_BYTES, { csvField: route?.meta.csvBodyField, raw: route?.meta.rawBody });
      state.rawBody = body.raw;
      state.bodyInputs = route?.inputs;
      req.body = withQueryFields(body.json, req.url ?? '', route?.meta.queryFields);
      req.headers['content-type'] = 'application/json';
    }
    // The handler writes error bodies its own way; this swaps in the spec's envelope at the last moment.
    const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
    res.end = ((chunk?: unknown) => {
      if (!state.error) return end(chunk);
      const envelope = toEnvelope(state.error, state.requestId);
      logFailedRequest(envelope, state.error, { requestId: state.requestId, method: state.method, path: state.path });
      res.statusCode = envelope.status;
      for (const [k, v] of Object.entries(envelope.headers)) res.setHeader(k, v);
      return end(JSON.stringify(envelope.body));
    }) as typeof res.end;
    if (opts.directCalls !== false) {
      if (route) return callProcedure(req, res, state, { route, apiPath, body: req.body }, createContext);
      const read = req.method === 'GET' ? own : undefined;
      const query = read && directQuery(read);
      if (read && query) return callProcedure(req, res, state, { route: read, apiPath, body: queryInput(search, query.arrays) }, createContext);
    }
    req.url = req.url!.slice(3);
    req.frCreateContext = createContext;
    await handler(req as never, res as never);
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = requestTarget(req.url);
    const origin = clientOrigin(req);
    const state: RequestState = {
      requestId: newId('request'),
      method: req.method ?? 'GET',
      path: url?.pathname ?? '/',
      rawBody: '',
      headers: {},
      clientAddress: origin.address,
    };
    (req as Req).frState = state;
    res.setHeader('X-Request-Id', state.requestId);
    // Behind a trusted proxy that terminates TLS, the client is on https: pin it there as PUBLIC_URL=https would.
    if (origin.https) res.setHeader('Strict-Transport-Security', HSTS);
    try {
      if (req.url === '*') return answerAsteriskForm(req, res, security.api('/'));
      if (!url?.pathname.startsWith('/')) {
        setHeaders(res, security.api('/'));
        // Authority-form (`CONNECT host:443`) asks for a tunnel: this service is no proxy.
        if (req.method === 'CONNECT') throw new AppError('validation_error', 'method_not_implemented', 501, 'This service is not a proxy: CONNECT is not implemented.');
        throw new AppError('validation_error', 'malformed_url', 400, 'The request target is not a path this service can read.');
      }
      if (!decodablePath(url.pathname)) {
        setHeaders(res, security.api(url.pathname));
        // Next.js (and a route's own decoding) would throw on it and answer a bare 500; it is the caller's mistake.
        logger.info({ requestId: state.requestId, method: state.method }, 'request refused: malformed percent-encoding in the URL path');
        throw new AppError('validation_error', 'malformed_url', 400, 'The URL path holds a malformed percent-encoding: every % must start a UTF-8 byte written as two hex digits.');
      }
      if (url.pathname === '/v1' || url.pathname.startsWith('/v1/')) {
        const apiPath = url.pathname.slice(3) || '/';
        setHeaders(res, security.api(apiPath));
        if (isPublicPath(apiPath)) setHeaders(res, corsHeaders(req));
        await handleV1(req as Req, res, state, apiPath, url.searchParams);
      } else if (url.pathname.startsWith(TRPC_PREFIX)) {
        setHeaders(res, security.api(url.pathname));
        if (allowMethod(state.method, trpcMethods(), res, url.pathname)) await serveTrpc(req, res, state);
      } else if (HEALTH_PATHS.has(url.pathname)) {
        setHeaders(res, security.api(url.pathname));
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          throw new AppError('validation_error', 'method_not_allowed', 405, `${req.method} is not allowed on ${url.pathname}.`, undefined, { Allow: 'GET, HEAD' });
        }
        await serveHealth(url.pathname, res, services, opts.worker);
      } else if (isWidgetPath(url.pathname)) {
        setHeaders(res, security.page);
        serveWidget(req, res, url.pathname);
      } else if (opts.patientPages && url.pathname.startsWith(PATIENT_ASSET_PREFIX)) {
        setHeaders(res, security.page);
        servePatientAsset(req, res, opts.patientPages, url.pathname);
      } else if (opts.portalActions && isPortalActionPath(url.pathname)) {
        // Data, not a page: the API's headers (no-store), and no CORS, so no other origin may read an answer.
        setHeaders(res, security.api(url.pathname));
        if (allowMethod(state.method, ['POST'], res, url.pathname)) {
          const call = { clientIp: origin.address, https: origin.https, publicUrl: services.auth.publicUrl, maxBodyBytes: services.config.MAX_BODY_BYTES };
          await servePortalAction(req, res, opts.portalActions, url.pathname, call);
        }
      } else if (url.pathname === DEMO_PATH) {
        setHeaders(res, security.page);
        await serveEmbedDemo(req, res, url, services);
      } else if (url.pathname === UNSUBSCRIBE_PATH) {
        // The opt-out link of patient notices (DESIGN decision 41): a plain page, no script.
        setHeaders(res, security.page);
        await serveUnsubscribe(req, res, url, services);
      } else if (isBillingSimulatedPath(url.pathname)) {
        // The simulated payment provider's pages tighten the page policy further (no script at all).
        setHeaders(res, security.page);
        await serveBillingSimulated(req, res, url, services);
      } else {
        // Hosted flow pages and the widget's frame carry their own CSP, with the key's origins as frame-ancestors.
        const framed = await framedPagePolicy(req, url, services);
        const unframed = framed ? null : hostedIntakePolicy(req, url);
        setHeaders(res, framed ? security.framed(framed.csp) : unframed ? security.unframed(unframed.csp) : security.page);
        if (!fallback) throw new AppError('not_found', 'route_not_found', 404, 'Unrecognized request URL.');
        if (!allowMethod(state.method, pageMethods(url.pathname), res, url.pathname)) return;
        // A flow's page viewed before: from the render cache, with this response's nonce (DESIGN decision 37);
        // else Next.js renders it and the cache keeps a copy.
        if (pages && framed?.cacheable && (await pages.answer(req, res, framed.cacheable, framed.nonce))) return;
        // The console's server-side sign-in forwards the browser's address to /v1 (server/api/client-ip.ts).
        req.headers[FORWARDED_CLIENT_IP] = origin.address;
        // An absolute-form target (`GET http://host/f/…`) reaches Next.js as the path it names.
        if (!req.url!.startsWith('/')) req.url = url.pathname + (url.searchParams.size ? `?${url.searchParams}` : '');
        // A view of a served flow: rendered without Next.js (app/_patient-pages/), into the render cache's copy when armed.
        if (opts.patientPages && framed?.cacheable && (await opts.patientPages.render(req, res, framed, origin.address))) return;
        // The patient portal's pages (never cached: they are the signed-in patient's).
        if (opts.patientPages && unframed?.portal && (await opts.patientPages.renderPortal(req, res, unframed.nonce, origin.address))) return;
        await runForwardedHttps(origin.https, () => fallback(req, res));
      }
    } catch (thrown) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendError(res, thrown, state);
    }
  };
}

/**
 * `OPTIONS * HTTP/1.1` asks what the server as a whole supports: 204 with every method some path serves. Any
 * other method with an asterisk target is malformed (RFC 9110 §7.1 keeps it to OPTIONS).
 */
function answerAsteriskForm(req: IncomingMessage, res: ServerResponse, headers: HeaderMap): void {
  setHeaders(res, headers);
  if (req.method !== 'OPTIONS') throw new AppError('validation_error', 'malformed_url', 400, 'Only OPTIONS may ask about `*`, the server as a whole.');
  res.statusCode = 204;
  res.setHeader('Allow', SERVER_METHODS);
  res.end();
}

/** Whether every `%` in the path starts a valid escape of UTF-8 (what `decodeURIComponent` accepts). */
function decodablePath(pathname: string): boolean {
  if (!pathname.includes('%')) return true;
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

let routing: ReturnType<typeof buildRouting> | undefined;

/**
 * The route table, the OpenAPI document and trpc-to-openapi's handler derive from the router alone, so they are
 * built once per process (≈ 1 s together) and shared by every app in it; the handler reaches each app's
 * services through the context factory its app puts on the request.
 */
function sharedRouting() {
  return (routing ??= buildRouting());
}

function buildRouting() {
  const table = buildRouteTable(appRouter);
  const openapiJson = JSON.stringify(buildOpenApiDocument(appRouter, table));
  const handler = createOpenApiNodeHttpHandler({
    router: appRouter,
    createContext: (({ req }: { req: Req }) => req.frCreateContext!({ req })) as never,
    // No maxBodySize: the handler never reads a body; the app has read and size-checked it (readJsonBody) and set req.body.
    responseMeta: ({ ctx, paths, errors: errs }) => {
      const state = (ctx as { state?: RequestState } | undefined)?.state;
      const status = errs.length ? undefined : (state?.status ?? table.metaOf(paths?.[0])?.successStatus ?? 200);
      return { status, headers: state?.headers ?? {} };
    },
    onError: ({ error, req }) => {
      const state = (req as Req).frState;
      if (state) state.error = error;
    },
  });
  return { table, openapiJson, handler };
}

function withQueryFields(json: unknown, url: string, fields: string[] | undefined): unknown {
  if (!fields?.length || !json || typeof json !== 'object' || Array.isArray(json)) return json;
  const query = new URL(url, 'http://localhost').searchParams;
  const merged = { ...(json as Record<string, unknown>) };
  for (const f of fields) {
    const value = query.get(f);
    if (value !== null) merged[f] = value;
  }
  return merged;
}
