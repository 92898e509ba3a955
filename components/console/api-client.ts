'use client';

import { signIn } from 'next-auth/react';

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

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

export type LoginAnswer = SessionTokens | { mfaRequired: true; mfaToken: string };

/** Hands an API session to next-auth, which keeps it in the console's cookie, then opens the console. */
export async function startConsoleSession(tokens: SessionTokens): Promise<string | undefined> {
  const res = await signIn('api-session', { ...tokens, redirect: false });
  if (!res || res.error) return 'The session could not be started. Try again.';
  window.location.assign('/console');
  return undefined;
}
