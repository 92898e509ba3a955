let override: (() => Date) | null = null;

/** Current time; tests move it to exercise expiries without waiting. */
export function now(): Date {
  return override ? override() : new Date();
}

export function setClock(fn: (() => Date) | null): void {
  override = fn;
}
