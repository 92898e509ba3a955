let override: (() => Date) | null = null;

// The Date this module was loaded with. Next.js, loaded later into the same process (server/http/main.ts),
// replaces the global Date with a wrapper that checks, on every `new Date()`, whether a prerender is reading
// the clock; none of the API's requests are prerenders, and on the public runtime that check was ≈ 1% of the
// CPU (issue 35). Next.js's own copy of this module, evaluated after the wrapper is in place, keeps it.
const SystemDate = Date;

/** Current time; tests move it to exercise expiries without waiting. */
export function now(): Date {
  return override ? override() : new SystemDate();
}

export function setClock(fn: (() => Date) | null): void {
  override = fn;
}
