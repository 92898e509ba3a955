import { consoleForwardProof, FORWARDED_CLIENT_IP, FORWARD_PROOF } from '@/server/api/client-ip';
import { consoleSecret } from './jwt';

/**
 * The console is a client of the public /v1 API. On the server (next-auth, server components) it calls this
 * same process over loopback; INTERNAL_API_URL points it elsewhere (e.g. another instance behind a balancer).
 */
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

export interface CallOptions {
  token?: string;
  mode?: string;
  method?: string;
  body?: unknown;
  /** The browser's address, so the API's per-IP sign-in limits count the person, not this loopback hop. */
  clientIp?: string;
}

export async function callApi<T>(path: string, opts: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.mode) headers['x-mode'] = opts.mode;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.clientIp) {
    headers[FORWARDED_CLIENT_IP] = opts.clientIp;
    headers[FORWARD_PROOF] = consoleForwardProof(consoleSecret());
  }
  const res = await fetch(`${internalApiBase()}/v1${path}`, {
    method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    cache: 'no-store',
    signal: AbortSignal.timeout(15_000),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiCallError(res.status, json?.error?.code ?? 'error', json?.error?.message ?? `HTTP ${res.status}`);
  return json as T;
}
