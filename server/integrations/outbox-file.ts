import fs from 'node:fs/promises';
import path from 'node:path';
import { newId } from '@/server/lib/ids';

/**
 * One message as a JSON file in an outbox directory (mail, SMS): readable by the server's user only (0600 in a
 * 0700 directory: a message may carry a sign-in link), written aside and linked into place so a reader never sees
 * half of one. With a `key` the file is `<key>.json` and a second write of the same key leaves the first in place
 * (link fails on an existing name, where rename would replace it). Returns the file written, or null when the key's
 * file was already there.
 */
export async function writeOutboxFile(dir: string, key: string | undefined, content: Record<string, unknown>): Promise<string | null> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode applies only to a directory it creates; an existing one is narrowed too.
  await fs.chmod(dir, 0o700);
  const file = path.join(dir, key ? `${key.replace(/[^A-Za-z0-9_-]/g, '_')}.json` : `${Date.now()}-${newId('request').slice(4)}.json`);
  const partial = `${file}.${newId('request').slice(4)}.partial`;
  await fs.writeFile(partial, JSON.stringify(content, null, 2), { mode: 0o600, flag: 'wx' });
  try {
    await fs.link(partial, file);
    return file;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw err;
  } finally {
    await fs.unlink(partial).catch(() => undefined);
  }
}
