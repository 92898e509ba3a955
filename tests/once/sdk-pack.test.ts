import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const SDK = path.resolve('sdk');

describe('sdk/ as a package', () => {
  it('builds with tsc and packs with npm pack: ESM and declarations, nothing of the project', async () => {
    // --dry-run still runs prepack (the tsc build) and lists what the tarball would hold.
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts=false'], { cwd: SDK, maxBuffer: 16 << 20 });
    const [pack] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { name: string; files: { path: string }[] }[];
    expect(pack.name).toBe('@fulfillment-rail/sdk');
    const files = pack.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/openapi.d.ts']));
    expect(files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md'].includes(f))).toEqual([]);

    // The built module loads on its own and exports what the README promises.
    const built = await import(pathToFileURL(path.join(SDK, 'dist/index.js')).href);
    for (const name of ['FulfillmentRail', 'verifyWebhook', 'FulfillmentRailError', 'NotFoundError', 'ConnectionError', 'modeFromKey']) expect(built[name], name).toBeDefined();
    expect(new built.FulfillmentRail('nk_live_x').mode).toBe('live');
  }, 120_000);
});
