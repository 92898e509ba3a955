import type { components } from './generated/openapi.js';

/** The body of every failure (SPEC "Errors"): `{error: {type, code, message, param?, request_id}}`. */
export type ErrorEnvelope = components['schemas']['Error'];
export type ErrorType = ErrorEnvelope['error']['type'];

/**
 * A failure the API answered. `type` and `code` are the stable contract (SPEC "Versioning" 4); `message` is for
 * people and may change. `requestId` is what to quote to support (also the `X-Request-Id` header).
 */
export class FulfillmentRailError extends Error {
  readonly type: ErrorType;
  readonly code: string;
  readonly param: string | undefined;
  readonly requestId: string | undefined;
  readonly statusCode: number;
  readonly details: ErrorEnvelope['error']['details'];
  readonly headers: Headers;

  constructor(statusCode: number, envelope: ErrorEnvelope['error'], headers: Headers) {
    super(envelope.message);
    this.name = new.target.name;
    this.type = envelope.type;
    this.code = envelope.code;
    this.param = envelope.param;
    this.requestId = envelope.request_id ?? headers.get('x-request-id') ?? undefined;
    this.statusCode = statusCode;
    this.details = envelope.details;
    this.headers = headers;
  }
}

export class AuthenticationError extends FulfillmentRailError {}
export class PermissionError extends FulfillmentRailError {}
export class NotFoundError extends FulfillmentRailError {}
export class ConflictError extends FulfillmentRailError {}
export class RateLimitError extends FulfillmentRailError {}
export class ValidationError extends FulfillmentRailError {}
export class ServiceUnavailableError extends FulfillmentRailError {}
export class ApiError extends FulfillmentRailError {}

/** No answer at all (connection refused or reset, DNS, a timeout), after every retry. */
export class ConnectionError extends Error {
  constructor(
    message: string,
    readonly cause: unknown,
  ) {
    super(message);
    this.name = 'ConnectionError';
  }
}

/** The stable codes of a `ConfigurationError`: branch on these, not on the message. */
export type ConfigurationErrorCode =
  /** `verifyWebhook` got no secret: an empty string, or `undefined` (an unset environment variable). */
  | 'webhook_secret_missing'
  /** `verifyWebhook` got a secret that is not `whsec_` + the standard, padded base64 of 32 bytes. */
  | 'webhook_secret_malformed';

/**
 * The SDK was given a setting it cannot work with, so nothing was sent or verified. A fault of the caller's
 * configuration, not of a request or a delivery: fix the setting, retrying cannot help. The message names what is
 * wrong and never repeats the secret.
 */
export class ConfigurationError extends Error {
  constructor(
    readonly code: ConfigurationErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

const BY_TYPE: Record<ErrorType, typeof FulfillmentRailError> = {
  authentication_error: AuthenticationError,
  permission_error: PermissionError,
  not_found: NotFoundError,
  conflict: ConflictError,
  rate_limit_error: RateLimitError,
  validation_error: ValidationError,
  service_unavailable: ServiceUnavailableError,
  api_error: ApiError,
};

function isEnvelope(body: unknown): body is ErrorEnvelope {
  const e = (body as { error?: { type?: unknown; code?: unknown } } | null)?.error;
  return typeof e?.type === 'string' && typeof e.code === 'string';
}

/** The typed error for a non-2xx answer; a body that is not the envelope (a proxy's page) becomes an `ApiError`. */
export function errorFromResponse(status: number, body: unknown, headers: Headers): FulfillmentRailError {
  if (isEnvelope(body)) {
    const Class = BY_TYPE[body.error.type] ?? ApiError;
    return new Class(status, body.error, headers);
  }
  const type: ErrorType = status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'api_error';
  const Class = BY_TYPE[type];
  return new Class(status, { type, code: 'unexpected_response', message: `HTTP ${status} without an error envelope`, request_id: headers.get('x-request-id') ?? '' }, headers);
}
