'use client';

import { apiErrorOf } from '@/web/trpc/client';

/** A failed call as the API explained it: its message, and the request id to quote to support. */
export function QueryError({ error, title }: { error: unknown; title?: string }) {
  const { message, data } = apiErrorOf(error);
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {title && <p className="font-semibold">{title}</p>}
      <p className="break-words">{message}</p>
      {data?.request_id && <p className="mt-1 font-mono text-xs text-red-700">Request {data.request_id}</p>}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p role="status" aria-live="polite" className="animate-pulse text-sm text-slate-500">
      {label}
    </p>
  );
}

/** The field a validation error names, so a form can show the API's message next to it. */
export function errorParam(error: unknown): string | undefined {
  return apiErrorOf(error).data?.param;
}
