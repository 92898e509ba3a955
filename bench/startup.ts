/**
 * Start time and idle RSS of the server as production starts it (issue 36, item 7): the compiled server
 * (`node scripts/run-built.mjs start`, what `npm start` runs) against the same TypeScript run through tsx
 * (`node --import tsx scripts/start.ts`, what it ran before), alternating, each on a fresh embedded database,
 * with Next.js loaded. Start time: spawn to the first 200 from /healthz (migrations included). Idle RSS: after
 * the server has settled. `npx tsx bench/startup.ts` (BENCH_STARTUP_ROUNDS, default 3); prints a table.
 */
import os from 'node:os';
import path from 'node:path';
import { freePort, log, markdownTable, rssMb, spawnChild, waitForHealthy } from './lib';
import { ensureServerBuild, npmStartSettings, tempDir } from './servers';

const ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS || 3);
const SETTLE_MS = 5_000;
const WAYS = { compiled: ['scripts/run-built.mjs', 'start'], tsx: ['--import', 'tsx', 'scripts/start.ts'] } as const;

async function once(way: keyof typeof WAYS): Promise<{ startMs: number; rss: number | null }> {
  const start = npmStartSettings();
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    NODE_OPTIONS: start.nodeOptions,
    MALLOC_ARENA_MAX: start.mallocArenaMax,
    NEXT_TELEMETRY_DISABLED: '1',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    PGLITE_DATA_DIR: path.join(tempDir('fr-startup-'), 'pglite'),
  };
  const child = spawnChild(`server (${way})`, [...WAYS[way]], env);
  const startMs = await waitForHealthy(`http://127.0.0.1:${port}/healthz`, child);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const rss = rssMb(child.pid);
  await child.stop();
  return { startMs, rss };
}

ensureServerBuild();
log(`load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const results: Record<keyof typeof WAYS, { startMs: number; rss: number | null }[]> = { compiled: [], tsx: [] };
for (let i = 0; i < ROUNDS; i++) for (const way of ['tsx', 'compiled'] as const) results[way].push(await once(way));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
process.stdout.write(
  `\n${markdownTable(
    ['server', 'start ms (median)', 'start ms (each)', 'idle RSS MB (median)', 'idle RSS MB (each)'],
    (['tsx', 'compiled'] as const).map((way) => {
      const r = results[way];
      return [way, String(median(r.map((x) => x.startMs))), r.map((x) => x.startMs).join(', '), median(r.map((x) => x.rss ?? 0)).toFixed(0), r.map((x) => (x.rss === null ? '?' : x.rss.toFixed(0))).join(', ')];
    }),
    [false, true, false, true, false],
  )}\n\nload average at end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`,
);
process.exit(0);
