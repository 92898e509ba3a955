'use client';

import { apiErrorOf } from '@/web/trpc/client';
import { errorParam, QueryError } from './query-state';

/** The API's message when its error names `field` (or an element of it, `field.0`), to show beside that field. */
export function fieldMessage(error: unknown, field: string): string | undefined {
  if (!error) return undefined;
  const param = errorParam(error);
  return param === field || param?.startsWith(`${field}.`) ? apiErrorOf(error).message : undefined;
}

/** The API's error code (scope_not_grantable, role_not_grantable…), for errors a form pins to one field itself. */
export function errorCode(error: unknown): string | undefined {
  return error ? apiErrorOf(error).data?.code : undefined;
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 break-words text-sm text-red-700">
      {message}
    </p>
  );
}

/** A failed mutation no field of the form claims: the API's message and request id above the submit button. */
export function FormError({ error, claimed }: { error: unknown; claimed: boolean }) {
  return error && !claimed ? <QueryError error={error} /> : null;
}
