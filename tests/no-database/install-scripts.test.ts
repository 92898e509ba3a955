import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * npm 11 asks a project to declare which dependencies may run install scripts (package.json `allowScripts`,
 * `npm help install-scripts`); an install prints "install scripts not yet covered by allowScripts" for every other
 * one, and a later npm blocks them. These checks keep the declaration in step with package-lock.json, so a
 * dependency that brings an install script fails here instead of warning at a newcomer's first `npm ci`.
 */

type LockEntry = { name?: string; version?: string; resolved?: string; hasInstallScript?: boolean; link?: boolean; inBundle?: boolean };

const read = (file: string) => JSON.parse(readFileSync(path.resolve(file), 'utf8'));
const pkg = read('package.json') as { allowScripts?: Record<string, unknown> };
const lock = read('package-lock.json') as { lockfileVersion: number; packages: Record<string, LockEntry> };
const allowScripts = pkg.allowScripts ?? {};

/** The installed packages whose install scripts npm would gate (bundled ones never run theirs; links are the project's). */
const withScripts = Object.entries(lock.packages)
  .filter(([location, e]) => location !== '' && e.hasInstallScript && !e.link && !e.inBundle)
  .map(([location, e]) => ({ name: e.name ?? location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length), version: e.version ?? '', resolved: e.resolved }));

/** An allowScripts key as npm reads one: a bare name (or `name@*`), or exact versions joined by `||`. */
function parseKey(key: string): { name: string; versions: string[] | 'any' } | null {
  const at = key.indexOf('@', 1);
  const name = at < 0 ? key : key.slice(0, at);
  const spec = at < 0 ? '' : key.slice(at + 1).trim();
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name)) return null;
  if (spec === '' || spec === '*') return { name, versions: 'any' };
  const versions = spec.split('||').map((v) => v.trim());
  return versions.every((v) => /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(v)) ? { name, versions } : null;
}

/**
 * Whether an entry decides this package (allowed with true, denied with false). npm matches a pinned entry only
 * against the version in the lock's `resolved` URL; this lock records none, so only name-only entries can match.
 */
function covered(p: (typeof withScripts)[number]) {
  return Object.keys(allowScripts).some((key) => {
    const k = parseKey(key);
    if (!k || k.name !== p.name) return false;
    return k.versions === 'any' || (p.resolved !== undefined && k.versions.includes(p.version));
  });
}

describe('package.json allowScripts', () => {
  it('decides every dependency in package-lock.json that has an install script', () => {
    expect(lock.lockfileVersion).toBeGreaterThanOrEqual(2); // `packages` with `hasInstallScript` is what is read
    expect(withScripts.length).toBeGreaterThan(0); // esbuild's postinstall, today: the check reads something
    const undecided = withScripts.filter((p) => !covered(p)).map((p) => `${p.name}@${p.version}`);
    // Review the package's script, then `npm install-scripts approve --no-allow-scripts-pin <name>` (or `deny <name>`).
    expect(undecided, 'install scripts not covered by package.json allowScripts').toEqual([]);
  });

  it('holds only entries npm accepts, each for an installed package that has an install script', () => {
    for (const [key, value] of Object.entries(allowScripts)) {
      expect(typeof value, `allowScripts["${key}"]: true allows, false denies`).toBe('boolean');
      const k = parseKey(key);
      expect(k, `allowScripts["${key}"]: a bare name or exact versions joined by "||" (npm ignores ranges and tags)`).not.toBeNull();
      // A stale entry (`npm install-scripts prune` would remove it) would let a future package of that name run unreviewed.
      expect(
        withScripts.some((p) => p.name === k!.name),
        `allowScripts["${key}"]: no package of that name in package-lock.json has an install script`,
      ).toBe(true);
    }
  });
});
