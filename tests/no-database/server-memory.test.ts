import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { npmStartSettings } from '@/bench/servers';

// Issue 20: with Next.js loaded, as `npm start` runs it, the server reached 438 MB under the key-list load on
// PostgreSQL. The two causes found are properties of the process, checked here in a node started the same way
// (the bench reads the same settings, so it measures what these tests check).
const run = async (args: string[], env: Record<string, string> = {}) =>
  (await promisify(execFile)(process.execPath, args, { env: { ...process.env, NODE_OPTIONS: '', ...env } })).stdout.trim();

describe('the server process as npm start runs it', () => {
  it('caps V8’s old space, so it collects at ≈ 1.6× the live heap instead of 4×', async () => {
    const { nodeOptions } = npmStartSettings();
    const limitMb = Number(await run(['-p', 'require("v8").getHeapStatistics().heap_size_limit / 2 ** 20'], { NODE_OPTIONS: nodeOptions }));
    // V8 lets the old generation grow to 4× the live heap between collections only when its limit is ≥ 2 GiB
    // (heap-controller.cc, MaxGrowingFactor); this machine's default limit is ~4 GiB.
    expect(limitMb).toBeGreaterThan(512);
    expect(limitMb).toBeLessThan(2048);
  });

  it('reads the Next.js configuration without loading Next’s native SWC compiler (≈ 25 MB resident)', async () => {
    const probe = [
      "const { default: loadConfig } = require('next/dist/server/config');",
      "loadConfig('phase-production-server', process.cwd()).then(() => {",
      "  console.log(process.report.getReport().sharedObjects.some((o) => o.includes('next-swc')));",
      '});',
    ].join('\n');
    expect(await run(['-e', probe], { NODE_ENV: 'production' })).toBe('false');
  });
});
