import http from 'node:http';
import type { Duplex } from 'node:stream';
import { toEnvelope } from '@/server/api/envelope';
import { AppError } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

// Node's own answers to what its parser refuses (its default clientError handler), with the method named apart.
const PARSER_REFUSALS: Record<string, { status: number; reason: string; error: () => AppError }> = {
  // A lowercase or unknown method token (`get`, `FOO`): llhttp refuses it before any route exists.
  HPE_INVALID_METHOD: {
    status: 501,
    reason: 'Not Implemented',
    error: () => new AppError('validation_error', 'method_not_implemented', 501, 'This service does not implement that request method.'),
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    error: () => new AppError('validation_error', 'headers_too_large', 431, 'The request headers are too large.'),
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    error: () => new AppError('validation_error', 'request_timeout', 408, 'The request took too long to arrive.'),
  },
};
const MALFORMED = {
  status: 400,
  reason: 'Bad Request',
  error: () => new AppError('validation_error', 'malformed_request', 400, 'The request is not valid HTTP/1.1.'),
};

/**
 * The server's `clientError`: what the HTTP parser refuses gets the envelope and a request id, as every
 * other answer does, instead of Node's bare `400 Bad Request` (issue 49, item 1). The connection closes.
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // Half a response already on the wire (a keep-alive connection's next request broke mid-answer), or a peer gone.
  const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const refusal = PARSER_REFUSALS[err.code ?? ''] ?? MALFORMED;
  const requestId = newId('request');
  const body = JSON.stringify(toEnvelope(refusal.error(), requestId).body);
  socket.end(
    `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The server's `connect` (a CONNECT request), which Node keeps off the request listener: without a listener the
 * socket was closed unanswered. It is given a response and answered by the app like any method, then closed.
 */
function answerConnect(app: Handler) {
  return (req: http.IncomingMessage, socket: Duplex): void => {
    const res = new http.ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as never);
    res.once('finish', () => {
      res.detachSocket(socket as never);
      socket.end();
    });
    void app(req, res);
  };
}

/** The service's HTTP server around a request handler: every request, whatever the parser thought of it, is answered. */
export function createServiceServer(app: Handler): http.Server {
  const server = http.createServer(app);
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect(app));
  return server;
}
