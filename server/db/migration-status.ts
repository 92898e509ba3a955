import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { MIGRATIONS } from './client';
import type { Db } from './types';

let expected: number | undefined;

/** The newest migration this code ships, as drizzle records it (`when` of the journal's last entry). */
function newestShipped(): number {
  if (expected === undefined) {
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as { entries: { when: number }[] };
    expected = Math.max(0, ...journal.entries.map((e) => e.when));
  }
  return expected;
}

/**
 * Whether the database holds every migration in the folder. Drizzle's migrator applies whatever is newer than
 * the newest row of its table, so that row is what counts; a missing table means nothing was applied.
 */
export async function migrationsApplied(db: Db): Promise<boolean> {
  const res = (await db.execute(sql`select max(created_at) as at from drizzle.__drizzle_migrations`)) as unknown as { rows: { at: unknown }[] };
  const at = res.rows[0]?.at;
  return at !== null && at !== undefined && Number(at) >= newestShipped();
}
