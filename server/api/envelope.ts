import { AppError, type ErrorDetail } from '@/server/lib/errors';
import { UNSTORABLE_TEXT_CODES } from '@/server/lib/zod';
import { type IssueLike, isMissing, issueMessage } from '@/server/lib/validation-messages';

export interface Envelope {
  status: number;
  /**
   * The answer was chosen by the code that threw it (an AppError: an upstream outage answered 503 by design)
   * rather than made here from something unexpected; see server/api/failure-log.ts.
   */
  deliberate: boolean;
  headers: Record<string, string>;
  body: { error: { type: string; code: string; message: string; param?: string; details?: ErrorDetail[]; resource_id?: string; request_id: string } };
}

const isAppError = (e: unknown): e is AppError => e instanceof AppError || (e as Error | undefined)?.name === 'AppError';
const zodIssues = (e: unknown): IssueLike[] | undefined => {
  const issues = (e as { issues?: unknown } | undefined)?.issues;
  return (e as Error | undefined)?.name === 'ZodError' && Array.isArray(issues) ? (issues as IssueLike[]) : undefined;
};

function fromZod(issues: IssueLike[]): AppError {
  // A NUL or a lone surrogate is named first, whatever else is wrong: no correction of the other fields could make it storable.
  const issue = issues.find((i) => UNSTORABLE_TEXT_CODES.has(i.params?.code ?? '')) ?? issues[0];
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    const param = [...issue.path.map(String), issue.keys[0]].join('.');
    return new AppError('validation_error', 'unknown_parameter', 400, `Received unknown parameter: '${param}'.`, param);
  }
  const param = issue.path.map(String).join('.');
  const code = isMissing(issue) ? 'parameter_missing' : 'invalid_request';
  return new AppError('validation_error', code, 400, issueMessage(issue), param || undefined);
}

const TRPC_CODES: Record<string, () => AppError> = {
  NOT_FOUND: () => new AppError('not_found', 'route_not_found', 404, 'Unrecognized request URL.'),
  PARSE_ERROR: () => new AppError('validation_error', 'invalid_json', 400, 'The request body is not valid JSON.'),
  PAYLOAD_TOO_LARGE: () => new AppError('validation_error', 'body_too_large', 413, 'The request body is too large.'),
  UNSUPPORTED_MEDIA_TYPE: () =>
    new AppError('validation_error', 'unsupported_media_type', 415, 'Send the request body as JSON with Content-Type: application/json.'),
  METHOD_NOT_SUPPORTED: () => new AppError('validation_error', 'method_not_allowed', 405, 'This method is not allowed on this URL.'),
};

/** Maps anything thrown anywhere to the spec's envelope; unknown failures reveal nothing internal. */
export function toEnvelope(thrown: unknown, requestId: string): Envelope {
  const appError = classify(thrown);
  return {
    status: appError.status,
    deliberate: isAppError(thrown) || isAppError((thrown as { cause?: unknown } | undefined)?.cause),
    headers: appError.headers ?? {},
    body: {
      error: {
        type: appError.type,
        code: appError.code,
        message: appError.message,
        ...(appError.param ? { param: appError.param } : {}),
        ...(appError.details?.length ? { details: appError.details } : {}),
        ...(appError.resourceId ? { resource_id: appError.resourceId } : {}),
        request_id: requestId,
      },
    },
  };
}

function classify(thrown: unknown): AppError {
  if (isAppError(thrown)) return thrown;
  const cause = (thrown as { cause?: unknown } | undefined)?.cause;
  if (isAppError(cause)) return cause;
  const issues = zodIssues(cause) ?? zodIssues(thrown);
  const code = (thrown as { code?: string } | undefined)?.code;
  const isOutputFailure = (thrown as Error | undefined)?.message === 'Output validation failed';
  if (issues && !isOutputFailure) return fromZod(issues);
  if (code && TRPC_CODES[code]) return TRPC_CODES[code]();
  if (databaseUnreachable(thrown)) {
    return new AppError('service_unavailable', 'database_unavailable', 503, 'The database is unreachable for a moment. Retry with the same Idempotency-Key.', undefined, { 'Retry-After': '1' });
  }
  return new AppError('api_error', 'internal_error', 500, 'An unexpected error occurred. It has been logged; retry with the same Idempotency-Key.');
}

// SQLSTATE class 08 (connection exception) and 57P01–57P03 (the server shutting down or starting), node-postgres's
// own words for a connection that went away, and a socket error under a query drizzle ran: a restart or a failover,
// not a bug; the client should retry. A socket error from anything else (a pharmacy, a receiver) stays a 500.
const CONNECTION_STATES = /^(08\d{3}|57P0[123])$/;
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
const CONNECTION_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** Whether the error (or one it wraps: drizzle wraps the driver's) says the database connection failed. */
function databaseUnreachable(thrown: unknown): boolean {
  let underQuery = false;
  for (let e = thrown, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof message === 'string' && message.startsWith('Failed query:')) underQuery = true;
    if (typeof code === 'string' && (CONNECTION_STATES.test(code) || (underQuery && CONNECTION_ERRNOS.has(code)))) return true;
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  }
  return false;
}
