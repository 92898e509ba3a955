import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * The server as production runs it (issue 36, item 7): the TypeScript of `npm start`, `npm run worker` and
 * `npm run cli` bundled into plain JavaScript in dist/server/ (packages stay in node_modules), so production
 * needs no TypeScript loader. Built by `npm run build` beside `next build`, or on the first start
 * (scripts/run-built.mjs). Shared code is split into chunks, so the three entries load one copy of it.
 */
export const OUT_DIR = 'dist/server';
/** Written after a build: scripts/run-built.mjs rebuilds when a source is newer. */
export const STAMP = path.join(OUT_DIR, '.built');

export async function buildServer() {
  await build({
    entryPoints: { start: 'scripts/start.ts', worker: 'server/jobs/main.ts', cli: 'bin/cli.ts' },
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    tsconfig: 'tsconfig.json',
    logLevel: 'warning',
  });
  writeFileSync(STAMP, new Date().toISOString());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  await buildServer();
  console.log(`Server built into ${OUT_DIR}/ in ${Date.now() - started} ms`);
}
