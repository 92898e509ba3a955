/**
 * Whether an error is a unique-index violation: PostgreSQL and PGlite report SQLSTATE 23505, and drizzle wraps
 * the driver's error in `cause` (once or more). Used where the index, not a prior read, decides a race.
 */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code === '23505') return true;
  }
  return false;
}
