import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, RequestState, Services } from '@/server/api/context';
import { resolvePrincipal } from '@/server/api/middlewares/authenticate';
import { EVENT_STREAM_PATH } from '@/server/api/openapi';
import type { Principal } from '@/server/domain/auth/principal';
import { hasScope } from '@/server/domain/developer/scopes';
import { EVENTS_CHANNEL, scopeTag } from '@/server/domain/events/emit';
import { createEventCursor } from '@/server/domain/events/stream-cursor';
import { keepStreamAwake } from '@/server/domain/events/stream-presence';
import { AppError, errors } from '@/server/lib/errors';
import { logger } from '@/server/lib/logger';
import { metrics } from '@/server/lib/metrics';
import { onDrain } from './lifecycle';

// Served here rather than by a procedure: a stream outlives tRPC's request/response model.
export { EVENT_STREAM_PATH };
const EVENT_ID = /^evt_[0-9a-z]{26}$/;

function authorize(principal: Principal) {
  if (principal.tenantId === null) throw errors.forbidden('The event stream belongs to a tenant; use a tenant API key.', 'tenant_credential_required');
  if (principal.kind !== 'key') throw errors.forbidden('The event log is read with a machine API key, not a user session.', 'api_key_required');
  if (!hasScope(principal.scopes, 'events.read')) throw errors.forbidden("This credential lacks the 'events.read' scope required here.", 'missing_scope');
  return { tenantId: principal.tenantId, livemode: principal.livemode };
}

function lastEventId(req: IncomingMessage): string | null {
  const raw = req.headers['last-event-id'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return null;
  if (!EVENT_ID.test(value)) throw errors.validation('Last-Event-ID must be the id of an event (evt_…).', 'Last-Event-ID', 'invalid_last_event_id');
  return value;
}

/**
 * GET /v1/developer/events/stream: each message is one Event with `id:` set, so EventSource resumes with
 * Last-Event-ID after a drop. NOTIFY (heard across processes on PostgreSQL) wakes the stream, sent for its
 * scope while any stream of it keeps itself listed (`keepStreamAwake`); the heartbeat comment keeps proxies
 * from closing it, renews the listing and doubles as a poll should a notification be missed.
 */
export async function serveEventStream(req: IncomingMessage, res: ServerResponse, services: Services, state: RequestState) {
  if (req.method !== 'GET') {
    throw new AppError('validation_error', 'method_not_allowed', 405, `${req.method} is not allowed on /v1${EVENT_STREAM_PATH}.`, undefined, { Allow: 'GET' });
  }
  const principal = await resolvePrincipal({ services, req, state } as Context);
  const scope = authorize(principal);
  const decision = await services.rateLimiter.consume(principal.rateLimitKey, principal.livemode);
  if (!decision.allowed) throw errors.rateLimited(decision.resetSeconds);
  const cursor = createEventCursor(services.database.db, scope, lastEventId(req));

  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store, no-transform',
    Connection: 'keep-alive',
    // Proxies that buffer (nginx) would hold events back until the buffer fills.
    'X-Accel-Buffering': 'no',
  });

  let closed = false;
  let pumping = false;
  let again = false;
  const write = (chunk: string) => (res.write(chunk) ? Promise.resolve() : new Promise<void>((r) => res.once('drain', r)));

  async function pump() {
    if (pumping) return void (again = true);
    pumping = true;
    try {
      do {
        again = false;
        for (let more = true; more && !closed; ) {
          const batch = await cursor.next();
          for (const event of batch.events) if (!closed) await write(`id: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`);
          more = batch.more;
        }
      } while (again && !closed);
    } catch (err) {
      logger.error({ requestId: state.requestId, err }, 'event stream read failed');
    } finally {
      pumping = false;
    }
  }

  const tag = scopeTag(scope);
  // Three heartbeats' grace: one renewal lost to a slow or failed statement does not silence the stream.
  const keepAwake = () =>
    keepStreamAwake(services.database.db, scope, 3 * services.config.SSE_HEARTBEAT_MS).catch((err) =>
      logger.warn({ requestId: state.requestId, err }, 'event stream presence not renewed'),
    );
  let unlisten: (() => Promise<void>) | null = null;
  const heartbeat = setInterval(() => {
    if (!closed) res.write(': heartbeat\n\n');
    void keepAwake();
    void pump();
  }, services.config.SSE_HEARTBEAT_MS);
  metrics().sseStreams.inc();
  // Graceful shutdown: the stream ends between two events, asking the client to come back soon (to another
  // process, through the balancer) with Last-Event-ID; nothing is lost, the log is the source.
  const offDrain = onDrain(() => {
    if (closed) return;
    closed = true;
    res.end(': server shutting down, reconnect with Last-Event-ID\nretry: 500\n\n');
  });
  let cleaned = false;
  const cleanUp = () => {
    if (cleaned) return;
    cleaned = true;
    closed = true;
    offDrain();
    metrics().sseStreams.dec();
    clearInterval(heartbeat);
    void unlisten?.();
  };
  res.on('close', cleanUp);
  // A client gone while the stream was authorized has closed the response already: 'close' will not come again.
  if (res.closed) cleanUp();
  unlisten = await services.database.listen(EVENTS_CHANNEL, (payload) => void (payload === tag && pump())).catch(() => null);
  if (closed) void unlisten?.();
  await keepAwake();
  // Said once the stream hears NOTIFY: an event committed from here on wakes it at once.
  if (!closed) res.write('retry: 2000\n: connected\n\n');
  await pump();
}
