/** Calendar days in UTC, as `YYYY-MM-DD`: the console's charts and counts all cut days at UTC midnight. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

export const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

export const addDays = (day: Date, n: number) => new Date(day.getTime() + n * 86_400_000);

export interface DayCount {
  date: string;
  count: number;
}

/**
 * One entry per day from `first` (inclusive) to `end` (exclusive), the counts found and 0 for every day
 * without any: a chart needs the quiet days too, or it draws a line straight over them.
 */
export function fillDays(first: Date, end: Date, counts: { day: string; n: number | string }[]): DayCount[] {
  const found = new Map(counts.map((c) => [c.day, Number(c.n)]));
  const days: DayCount[] = [];
  for (let d = startOfUtcDay(first); d < end; d = addDays(d, 1)) days.push({ date: utcDay(d), count: found.get(utcDay(d)) ?? 0 });
  return days;
}
