import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { createTenantWithKeys, startTestApp } from '../helpers/harness';

// Issue 20, item 9: the embedded database's files hold PHI in plain text, so no other local user may read them.
// These tests use PGlite on disk in both runs (a PostgreSQL server keeps its own files).

const NAME = 'Zebulon';

/** Every entry under `dir` (itself included) that group or others may use, with its mode. */
function loose(dir: string): string[] {
  const found: string[] = [];
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.mode & 0o077) found.push(`${path.relative(dir, p) || '.'} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
  };
  walk(dir);
  return found;
}

/** Files under `dir` whose bytes contain `text`. */
function filesContaining(dir: string, text: string): string[] {
  const needle = Buffer.from(text);
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && fs.readFileSync(path.join(e.parentPath, e.name)).includes(needle))
    .map((e) => path.join(e.parentPath, e.name));
}

async function withPatient(dataDir: string, check: () => void = () => undefined) {
  const app = await startTestApp({ PGLITE_DATA_DIR: dataDir }, { embedded: true });
  try {
    check();
    const t = await createTenantWithKeys(app);
    const res = await app.request('POST', '/v1/patients', {
      key: t.liveKey,
      body: {
        firstName: NAME,
        lastName: 'Doe',
        dateOfBirth: '1980-01-02',
        sex: 'male',
        email: 'z.doe@example.org',
        phone: '(415) 555-0134',
        address: { line1: '1 Main St', city: 'Fresno', state: 'CA', postalCode: '93650' },
      },
    });
    expect(res.status, res.text).toBe(201);
  } finally {
    await app.close();
  }
}

const tempRoot = () => fs.mkdtempSync(path.join(os.tmpdir(), 'fr-datadir-'));

describe('embedded data directory permissions', () => {
  it('creates the directory 0700 and every file 0600, the ones holding a patient’s name included', async () => {
    const dir = path.join(tempRoot(), 'pglite');
    await withPatient(dir);
    expect(loose(dir)).toEqual([]);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const holders = filesContaining(dir, NAME);
    expect(holders.length).toBeGreaterThan(0);
    for (const f of holders) expect(fs.statSync(f).mode & 0o777).toBe(0o600);
  });

  it('repairs a world-readable directory left by an earlier version when it starts', async () => {
    const dir = path.join(tempRoot(), 'pglite');
    fs.mkdirSync(dir, { mode: 0o755 });
    const old = new PGlite(dir); // as releases before the fix wrote it: 0666 files
    await old.waitReady;
    await old.close();
    fs.chmodSync(dir, 0o777);
    fs.writeFileSync(path.join(dir, 'stray'), 'x', { mode: 0o644 });
    expect(loose(dir).length).toBeGreaterThan(100);

    await withPatient(dir, () => expect(loose(dir)).toEqual([]));
    expect(loose(dir)).toEqual([]);
  });
});
