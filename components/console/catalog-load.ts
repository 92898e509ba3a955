import { ApiCallError, callApi } from '@/lib/console/api';

export type Loaded<T> = { ok: true; data: T } | { ok: false; status: number; code: string; message: string };

/**
 * A server page's read of the API that keeps a refusal (403 for a role without the scope, 404, …) as a value,
 * so the page can show the API's message instead of failing whole.
 */
export async function loadApi<T>(path: string, auth: { token: string; mode: string }): Promise<Loaded<T>> {
  try {
    return { ok: true, data: await callApi<T>(path, auth) };
  } catch (err) {
    if (err instanceof ApiCallError) return { ok: false, status: err.status, code: err.code, message: err.message };
    throw err;
  }
}
