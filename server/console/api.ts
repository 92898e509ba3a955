/** The console is a client of the public /v1 API; on the server it calls this same process over loopback. */
export function internalApiBase(): string {
  return (process.env.INTERNAL_API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
}

export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function callApi<T>(path: string, opts: { token?: string; mode?: string; method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${internalApiBase()}/v1${path}`, {
    method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.mode ? { 'x-mode': opts.mode } : {}),
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    cache: 'no-store',
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiCallError(res.status, json?.error?.code ?? 'error', json?.error?.message ?? `HTTP ${res.status}`);
  return json as T;
}
