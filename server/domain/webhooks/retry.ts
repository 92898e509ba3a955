const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/** `Retry-After` as seconds or an HTTP date, in ms from `at`; capped at a day so no receiver parks a delivery forever. */
export function parseRetryAfter(header: string | string[] | undefined, at: Date): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const ms = /^\d+$/.test(value.trim()) ? Number(value.trim()) * 1000 : Date.parse(value) - at.getTime();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : null;
}

/**
 * DESIGN decision 6: `schedule[k]` is the delay before attempt k+1. After `attempts` failures the next
 * attempt waits its scheduled delay or the receiver's Retry-After, whichever is longer; none left → null.
 */
export function nextAttemptDelay(schedule: number[], attempts: number, retryAfterMs: number | null): number | null {
  if (attempts >= schedule.length) return null;
  return Math.max(schedule[attempts], retryAfterMs ?? 0);
}
