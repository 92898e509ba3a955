'use client';

import { signIn } from 'next-auth/react';

export interface ApiResult<T> {
  ok: boolean;
  data: T;
  error?: { code: string; message: string };
}

/** Browser calls to the public API of this same origin. */
export async function postJson<T = any>(path: string, body: unknown, token?: string): Promise<ApiResult<T>> {
  const res = await fetch(`/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  const json = await res.json().catch(() => ({}));
  return { ok: res.ok, data: json as T, error: res.ok ? undefined : json?.error };
}

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
