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
