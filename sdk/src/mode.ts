export type Mode = 'live' | 'sandbox';

/**
 * Sandbox or live, read from the key as Stripe reads `sk_test_`/`sk_live_`: `nk_live_…`, `rk_live_…` are live,
 * `nk_sandbox_…`, `rk_sandbox_…` sandbox. A session token (from sign-in) says nothing: null.
 */
export function modeFromKey(key: string): Mode | null {
  const m = /^(?:nk|rk)_(live|sandbox)_/.exec(key);
  return m ? (m[1] as Mode) : null;
}
