import fs from 'node:fs';
import path from 'node:path';

/** Permission bits of group and others. */
export const OWNER_ONLY = 0o077;

/**
 * The embedded database holds PHI in plain files, so its directory is the owner's alone: 0700 directories,
 * 0600 files. The umask covers what this process creates later (the lock file, PGlite's new directories;
 * its files need pglite-private-fs.ts); the walk repairs a directory made by an older version or another tool.
 */
export function ensurePrivateDir(dir: string): void {
  makePrivateDir(dir);
  restrictTree(dir);
}

/** The umask and the directory alone, for what runs before the database opens (and repairs the tree). */
export function makePrivateDir(dir: string): void {
  process.umask(OWNER_ONLY);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

function restrictTree(dir: string): void {
  fs.chmodSync(dir, 0o700);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) restrictTree(full);
    else if (entry.isFile()) fs.chmodSync(full, 0o600);
  }
}
