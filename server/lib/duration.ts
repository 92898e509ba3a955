const DURATION = /^(\d+)(ms|s|m|h)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

export const isDuration = (v: string) => DURATION.test(v);

/** `5s`, `5m`, `2h`, `250ms`; a bare number is milliseconds (so `0` reads naturally). */
export function parseDuration(v: string): number {
  const m = DURATION.exec(v.trim());
  if (!m) throw new Error(`Not a duration: ${v}`);
  return Number(m[1]) * UNIT_MS[m[2] ?? 'ms'];
}

/** WEBHOOK_RETRY_SCHEDULE: the delay before each attempt, the first usually 0. */
export function parseSchedule(v: string): number[] {
  return v.split(',').map(parseDuration);
}
