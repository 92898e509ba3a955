import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';
import type { ErrorType } from '@/server/lib/errors';
import { SYSTEMS } from './systems';

/** FHIR's issue type for each of the envelope's error types (and a few statuses said more precisely). */
function issueCode(type: ErrorType, status: number): OperationOutcomeIssue['code'] {
  if (status === 405 || status === 406 || status === 415 || status === 501) return 'not-supported';
  if (status === 413) return 'too-long';
  switch (type) {
    case 'authentication_error':
      return 'login';
    case 'permission_error':
      return 'forbidden';
    case 'not_found':
      return 'not-found';
    case 'conflict':
      return 'conflict';
    case 'rate_limit_error':
      return 'throttled';
    case 'service_unavailable':
      return 'transient';
    case 'validation_error':
      return status === 422 ? 'processing' : 'invalid';
    default:
      return 'exception';
  }
}

export interface OutcomeProblem {
  message: string;
  /** Where (a linkId, a search parameter, a field), as FHIRPath-ish `expression`. */
  expression?: string;
}

/**
 * An error as FHIR's OperationOutcome: one issue per problem, each with FHIR's issue type, the project's
 * stable error code (the REST envelope's `error.code`) and the message. Messages are the envelope's: never PHI.
 */
export function operationOutcome(error: { type: ErrorType; code: string; status: number; message: string; param?: string }, problems: OutcomeProblem[] = []): OperationOutcome {
  const list = problems.length ? problems : [{ message: error.message, expression: error.param }];
  return {
    resourceType: 'OperationOutcome',
    issue: list.map((p) => ({
      severity: error.status >= 500 ? 'fatal' : 'error',
      code: issueCode(error.type, error.status),
      details: { coding: [{ system: SYSTEMS.errorCode, code: error.code }], text: p.message },
      diagnostics: p.message,
      expression: p.expression ? [p.expression] : undefined,
    })),
  };
}
