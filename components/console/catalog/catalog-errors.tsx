'use client';

import { apiErrorOf } from '@/web/trpc/client';
import { ErrorAlert, type ApiErrorBody } from './catalog-ui';

/** A tRPC refusal in the shape the catalog forms show: message, field, and each detail (a CSV's bad rows). */
export function refusalOf(error: unknown): ApiErrorBody {
  const { message, data } = apiErrorOf(error);
  const details = (data?.details ?? []).filter((d): d is NonNullable<ApiErrorBody['details']>[number] => typeof d === 'object' && d !== null && 'message' in d);
  return { message, code: data?.code, param: data?.param, details };
}

/** The API's message for one field, when the refusal names it; the form shows it under that field. */
export function fieldMessage(error: unknown, field: string): string | undefined {
  if (!error) return undefined;
  const { message, data } = apiErrorOf(error);
  const param = data?.param;
  // `states.2` or `settings.baseUrl` belong to the `states` or `settings` field.
  return param === field || param?.startsWith(`${field}.`) || param?.startsWith(`${field}[`) ? message : undefined;
}

export function FieldMessage({ error, field }: { error: unknown; field: string }) {
  const message = fieldMessage(error, field);
  if (!message) return null;
  return (
    <p role="alert" data-testid="field-error" className="mt-1 break-words text-sm text-red-700">
      {message}
    </p>
  );
}

/**
 * A refusal not tied to one of the form's own fields (those are shown beside the field), with its details and
 * the request id to quote to support.
 */
export function ApiRefusal({ error, fields = [], testId }: { error: unknown; fields?: readonly string[]; testId?: string }) {
  if (!error) return null;
  const refusal = refusalOf(error);
  if (fields.some((f) => fieldMessage(error, f))) return null;
  const requestId = apiErrorOf(error).data?.request_id;
  return (
    <div className="space-y-1">
      <ErrorAlert error={refusal} testId={testId} />
      {requestId && <p className="font-mono text-xs text-slate-500">Request {requestId}</p>}
    </div>
  );
}
