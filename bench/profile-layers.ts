/**
 * Where a server's CPU goes, by layer: reads a V8 `.cpuprofile` (from `BENCH_SERVER_NODE_ARGS="--cpu-prof
 * --cpu-prof-dir=DIR" npm run bench`, which profiles the project and the same-SQL reference alike) and charges
 * each sample to the nearest frame, leaf first, that belongs to a package (`pg`, `@trpc/server`, `zod`, …), a
 * `node:` module, or the project's own code; samples with no such frame are GC, the program, or native code.
 *
 *   npx tsx bench/profile-layers.ts FILE [--from S] [--to S] [--runs N] [--by layer|function|second]
 *
 * --from/--to keep the samples between those seconds of the profile (`--by second` prints busy ms per second,
 * to find a measured round); --runs N divides by the runs (or requests) in that window, so two servers'
 * profiles compare per unit of work; `--by function` lists the functions that spend the most themselves.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { from: { type: 'string' }, to: { type: 'string' }, runs: { type: 'string' }, by: { type: 'string' } },
});
const file = positionals[0];
if (!file) {
  console.error('usage: npx tsx bench/profile-layers.ts FILE [--from S] [--to S] [--runs N] [--by layer|function|second]');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
const from = Number(values.from ?? 0) * 1e6;
const to = Number(values.to ?? Infinity) * 1e6;
const runs = Number(values.runs ?? 1);
const by = values.by ?? 'layer';

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);

/** The layer a frame belongs to, or null for a frame without a script (native code, V8's own entries). */
function layerOfFrame({ url, functionName }: CallFrame): string | null {
  if (!url) return functionName === '(garbage collector)' ? 'GC' : functionName === '(program)' ? 'program' : null;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return url;
  return 'project and bench code';
}

const layerCache = new Map<number, string>();
function layerOf(id: number): string {
  let layer = layerCache.get(id);
  if (layer) return layer;
  for (let cur: number | undefined = id; cur !== undefined && !layer; cur = parentOf.get(cur)) layer = layerOfFrame(byId.get(cur)!.callFrame) ?? undefined;
  layer ??= `native: ${byId.get(id)!.callFrame.functionName || '?'}`;
  layerCache.set(id, layer);
  return layer;
}

const totals = new Map<string, number>();
let busyMs = 0;
let at = 0;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i] ?? 0;
  if (at < from || at > to) continue;
  const node = byId.get(profile.samples[i])!;
  if (node.callFrame.functionName === '(idle)') continue;
  // A sample stands for the time until the next one.
  const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  const { functionName, url, lineNumber } = node.callFrame;
  const key =
    by === 'second' ? String(Math.floor(at / 1e6)) : by === 'function' ? `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '')}:${lineNumber + 1}` : layerOf(node.id);
  totals.set(key, (totals.get(key) ?? 0) + ms);
  busyMs += ms;
}

console.log(`busy ${busyMs.toFixed(0)} ms of the main thread; ${(busyMs / runs).toFixed(3)} ms per run (${runs} runs)`);
const rows = by === 'second' ? [...totals].sort((a, b) => Number(a[0]) - Number(b[0])) : [...totals].sort((a, b) => b[1] - a[1]).slice(0, 40);
for (const [key, ms] of rows) console.log(`${(ms / runs).toFixed(3).padStart(10)}  ${((100 * ms) / busyMs).toFixed(1).padStart(5)}%  ${key}`);
