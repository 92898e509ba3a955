import { AppError, type ErrorDetail } from '@/server/lib/errors';
import { NUL_CODE } from '@/server/lib/zod';
import { type IssueLike, isMissing, issueMessage } from '@/server/lib/validation-messages';

export interface Envelope {
  status: number;
  headers: Record<string, string>;
  body: { error: { type: string; code: string; message: string; param?: string; details?: ErrorDetail[]; resource_id?: string; request_id: string } };
}

const isAppError = (e: unknown): e is AppError => e instanceof AppError || (e as Error | undefined)?.name === 'AppError';
const zodIssues = (e: unknown): IssueLike[] | undefined => {
  const issues = (e as { issues?: unknown } | undefined)?.issues;
  return (e as Error | undefined)?.name === 'ZodError' && Array.isArray(issues) ? (issues as IssueLike[]) : undefined;
};

function fromZod(issues: IssueLike[]): AppError {
  // A NUL is named first, whatever else is wrong: no correction of the other fields could make it storable.
  const issue = issues.find((i) => i.params?.code === NUL_CODE) ?? issues[0];
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
  return new AppError('api_error', 'internal_error', 500, 'An unexpected error occurred. It has been logged; retry with the same Idempotency-Key.');
}

