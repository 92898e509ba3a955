export type ErrorType =
  | 'authentication_error'
  | 'permission_error'
  | 'not_found'
  | 'conflict'
  | 'rate_limit_error'
  | 'validation_error'
  | 'service_unavailable'
  | 'api_error';

/** One of several problems found at once (a CSV row, say), so a client can point at each. */
export interface ErrorDetail {
  line?: number;
  param?: string;
  message: string;
}

/** The one error every layer throws; the HTTP layer turns it into the spec's envelope. */
export class AppError extends Error {
  constructor(
    readonly type: ErrorType,
    readonly code: string,
    readonly status: number,
    message: string,
    readonly param?: string,
    readonly headers?: Record<string, string>,
    readonly details?: ErrorDetail[],
    /** The existing resource a conflict is about (a duplicate's original), for the client to fetch. */
    readonly resourceId?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

const ID_SHAPE = /^[a-z]{2,5}_[0-9a-z]{26}$/;

export const errors = {
  validation: (message: string, param?: string, code = 'invalid_request') =>
    new AppError('validation_error', code, 400, message, param),
  unprocessable: (message: string, param?: string, code = 'unprocessable') =>
    new AppError('validation_error', code, 422, message, param),
  unauthenticated: (message = 'Invalid or missing API key. Pass it as "Authorization: Bearer <key>".', code = 'invalid_api_key') =>
    new AppError('authentication_error', code, 401, message),
  forbidden: (message: string, code = 'permission_denied') => new AppError('permission_error', code, 403, message),
  // Only an id-shaped value is echoed: a path segment or body field can hold anything, PHI included.
  notFound: (what: string, id?: string) =>
    new AppError('not_found', 'resource_missing', 404, id && ID_SHAPE.test(id) ? `No such ${what}: '${id}'` : `No such ${what}`),
  conflict: (message: string, code = 'conflict') => new AppError('conflict', code, 409, message),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError('rate_limit_error', 'rate_limited', 429, 'Too many requests. Retry after the time in the Retry-After header.', undefined, {
      'Retry-After': String(retryAfterSeconds),
    }),
};
