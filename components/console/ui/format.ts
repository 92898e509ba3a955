import { ageOn, dayNumber } from '@/server/domain/intake/shared/derived';

/**
 * One date format across the console, with its time zone: always UTC, so the server's render and the
 * browser's agree (no hydration mismatch) and two people comparing a timeline see the same times.
 */
const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC', hourCycle: 'h23' });
const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return `${DATE_TIME.format(new Date(value))} UTC`;
}

export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return DATE.format(new Date(value));
}

/** "41 years": whole years today (UTC) for a YYYY-MM-DD birth date, by the engine's own `age()` rule. */
export function ageOf(dateOfBirth: string, on: Date = new Date()): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth)) return 'age unknown';
  return `${ageOn(dayNumber(dateOfBirth), dayNumber(on.toISOString().slice(0, 10)))} years`;
}
