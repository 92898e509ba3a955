// A plain module (not 'use client'): the analytics page computes the same range on the server to prefetch it.

export const RANGES = [7, 30, 90] as const;
export type RangeDays = (typeof RANGES)[number];

/** The UTC days `from`..`to` of the last `days` days, today included: what the stats and daily series take. */
export function rangeOf(days: number, today = new Date()): { from: string; to: string } {
  const to = today.toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

/** Every day of the range, zero where the series has no row, so gaps read as quiet days, not missing ones. */
export function fillDays<T extends { day: string }>(rows: readonly T[], from: string, to: string, empty: (day: string) => T): T[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: T[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    out.push(byDay.get(day) ?? empty(day));
  }
  return out;
}
