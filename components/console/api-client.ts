'use client';

export interface ApiResult<T> {
  ok: boolean;
  data: T;
  error?: { code: string; message: string };
}

/** Browser calls to the public API of this same origin, as the signed-in user in the console's mode. */
export async function apiCall<T = any>(method: string, path: string, body?: unknown, auth?: { token: string; mode?: string }): Promise<ApiResult<T>> {
  const res = await fetch(`/v1${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(auth ? { authorization: `Bearer ${auth.token}` } : {}),
      ...(auth?.mode ? { 'x-mode': auth.mode } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  return { ok: res.ok, data: json as T, error: res.ok ? undefined : json?.error };
}

export const postJson = <T = any>(path: string, body: unknown, token?: string) =>
  apiCall<T>('POST', path, body ?? {}, token ? { token } : undefined);
