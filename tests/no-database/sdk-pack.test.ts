import { execFile } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { cp, mkdtemp, readdir, rm, symlink, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const SDK = path.resolve('sdk');
const NODE_MODULES = path.resolve('node_modules');

/** Every path under `dir`, relative, sorted: what the tree holds, to compare before and after. */
async function tree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

const leftovers = (names: Iterable<string>) => [...names].filter((n) => n === 'dist' || n.startsWith('dist/') || n.endsWith('.tgz'));

describe('sdk/ as a package', () => {
  it('builds with tsc and packs with npm pack, in a temporary copy: ESM and declarations, nothing of the project, nothing left in sdk/', async () => {
    // The build and the pack run on a copy in the system's temporary directory, never in sdk/: a `dist/` left there
    // is picked up by knip (and by anything else that globs the tree) after `npm test`.
    const before = await tree(SDK);
    const distBefore = existsSync(path.join(SDK, 'dist'));
    const seen = new Set<string>(); // every name created or renamed directly in sdk/ while the test runs
    const watcher = watch(SDK, (_event, name) => {
      if (name) seen.add(String(name));
    });
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'fr-sdk-pack-'));
    const pkg = path.join(tmp, 'sdk');
    try {
      await cp(SDK, pkg, { recursive: true, filter: (src) => !/^(dist|node_modules)$|\.tgz$/.test(path.relative(SDK, src)) });
      // The project's dependencies (typescript's tsc, openapi-fetch's and standardwebhooks's types) resolve as they
      // do from sdk/, through a link; npm pack never takes node_modules into the tarball.
      await symlink(NODE_MODULES, path.join(pkg, 'node_modules'), 'junction');

      // --dry-run still runs prepack (the tsc build) and lists what the tarball would hold.
      const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts=false'], { cwd: pkg, maxBuffer: 16 << 20 });
      const [pack] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { name: string; files: { path: string }[] }[];
      expect(pack.name).toBe('@fulfillment-rail/sdk');
      const files = pack.files.map((f) => f.path);
      expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/openapi.d.ts']));
      expect(files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md'].includes(f))).toEqual([]);

      // The built module loads on its own and exports what the README promises.
      const built = await import(pathToFileURL(path.join(pkg, 'dist/index.js')).href);
      for (const name of ['FulfillmentRail', 'verifyWebhook', 'FulfillmentRailError', 'NotFoundError', 'ConnectionError', 'ConfigurationError', 'WebhookVerificationError', 'modeFromKey']) expect(built[name], name).toBeDefined();
      expect(new built.FulfillmentRail('nk_live_x').mode).toBe('live');
      expect(() => built.verifyWebhook('{}', {}, '')).toThrow(built.ConfigurationError);

      // Nothing of the build or the pack reached sdk/, not even for a moment.
      await new Promise((resolve) => setTimeout(resolve, 100)); // let the last file-system events arrive
      expect(leftovers(seen)).toEqual([]);
      expect(existsSync(path.join(SDK, 'dist'))).toBe(distBefore);
    } finally {
      watcher.close();
      // The link first, on its own (unlink never follows it), so removing the copy cannot reach the project's modules.
      await unlink(path.join(pkg, 'node_modules')).catch(() => {});
      await rm(tmp, { recursive: true, force: true });
    }

    // The temporary copy is gone and sdk/ is as it was found: no dist/ (unless one was there before), no tarball.
    expect(existsSync(tmp)).toBe(false);
    expect(await tree(SDK)).toEqual(before);
    expect(leftovers(await tree(SDK))).toEqual(distBefore ? leftovers(before) : []);
    if (!distBefore) expect(existsSync(path.join(SDK, 'dist'))).toBe(false);
  }, 120_000);
});
