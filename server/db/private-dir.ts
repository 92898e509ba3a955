import fs from 'node:fs';
import path from 'node:path';

/** Permission bits of group and others. */
export const OWNER_ONLY = 0o077;

/*
 * The embedded database holds PHI in plain files, so its directory is the owner's alone: 0700 directories,
 * 0600 files. The umask covers what this process creates later (the lock file, PGlite's new directories;
 * its files need pglite-private-fs.ts); the walk repairs a directory made by an older version, another tool or
 * the child process that creates a new cluster (pglite-first-start.ts).
 */

/** The umask and the directory alone, for what runs before the database opens (and before the tree is repaired). */
export function makePrivateDir(dir: string): void {
  process.umask(OWNER_ONLY);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Every directory under `dir` 0700 and every file 0600, at each start before the database opens. */
export function restrictPrivateTree(dir: string): void {
  fs.chmodSync(dir, 0o700);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) restrictPrivateTree(full);
    else if (entry.isFile()) fs.chmodSync(full, 0o600);
  }
}
