import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@/server/db/client';
import type { Database } from '@/server/db/types';

// Issue 55 (item 4): the embedded database starts with a 16 MB buffer cache instead of PGlite's 128 MB
// (docs/decisions/performance.md, "PGlite's buffer cache"); nothing else about how it runs may change with it.

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function setting(database: Database, name: string): Promise<string> {
  const result = (await database.db.execute(sql`select current_setting(${name}) as value`)) as unknown as { rows: { value: string }[] };
  return result.rows[0]!.value;
}

describe('the embedded database’s settings', () => {
  it.each([
    ['on disk', () => fs.mkdtempSync(path.join(os.tmpdir(), 'fr-pglite-settings-'))],
    ['in memory', () => 'memory://'],
  ])('%s: a 16 MB buffer cache, PGlite’s own start parameters otherwise', async (_where, makeDir) => {
    const dir = makeDir();
    if (dir !== 'memory://') dirs.push(dir);
    const database = await openDatabase({ pgliteDataDir: dir });
    try {
      expect(await setting(database, 'shared_buffers')).toBe('16MB');
      // Durability and the single-process settings are PGlite's, as before.
      expect(await setting(database, 'fsync')).toBe('off');
      expect(await setting(database, 'synchronous_commit')).toBe('on');
      expect(await setting(database, 'full_page_writes')).toBe('on');
      expect(await setting(database, 'search_path')).toBe('public');
      expect(await setting(database, 'max_worker_processes')).toBe('0');
    } finally {
      await database.close();
    }
  });
});
