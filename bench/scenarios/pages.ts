import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BenchError, fmt, log, markdownTable, measure, onCleanup, settings, type LoadSpec, type Measurement } from '../lib';
import { startStaticPage } from '../servers';
import { setupWorld } from './flows';
import type { Scenario, TargetCheck } from './types';

export const PAGES_HOSTED = 'pages: GET /f/{embedKey} (render cache)';
export const PAGES_FRAME = 'pages: GET /embed/frame?k=&t=flow (render cache)';
const RATIO_TARGET = 0.25;
const P99_TARGET_MS = 50;
const ORIGIN = 'https://clinic.example';

/** The floor of each case on each database: bare node:http serving the very bytes the server answered. */
const floors = new Map<string, Measurement>();
const floorKey = (db: string, name: string) => `${db} ${name}`;

/**
 * Issue 35 (1): a campaign's traffic on the hosted page and on the widget's frame, answered from the render
 * cache (DESIGN decision 37), side by side with bare `node:http` serving the same bytes, measured right after
 * it in the same run (the floor: what any server must spend to send these bytes over HTTP).
 */
export const pagesScenario: Scenario = {
  id: 'pages',

  async run(ctx) {
    const w = await setupWorld(ctx.server.baseUrl, ctx.server.opsKey, `${ctx.db}-pages`);
    const cases: LoadSpec[] = [
      { name: PAGES_HOSTED, method: 'GET', path: `/f/${w.embed}` },
      // As the widget's iframe asks for it: the framing page's origin as Referer, an iframe's fetch destination.
      { name: PAGES_FRAME, method: 'GET', path: `/embed/frame?k=${w.embed}&t=flow`, headers: { referer: `${ORIGIN}/`, 'sec-fetch-dest': 'iframe' } },
    ];
    const rows: string[][] = [];
    for (const spec of cases) {
      const page = await fetchPage(ctx.server.baseUrl, spec);
      const server = await ctx.measure(spec);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fr-bench-page-')), 'page.html');
      onCleanup(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));
      fs.writeFileSync(file, page.body);
      const floorServer = await startStaticPage(file, page.contentType);
      let floor: Measurement;
      try {
        floor = await measure({ baseUrl: floorServer.baseUrl, pid: floorServer.pid, db: `${ctx.db} floor`, exited: floorServer.child.exited }, { ...spec, name: `${spec.name}: bare node:http, same bytes` });
      } finally {
        await floorServer.child.stop();
      }
      floors.set(floorKey(ctx.db, spec.name), floor);
      const ratio = server.reqPerSec / floor.reqPerSec;
      log(`${ctx.db.padEnd(8)} ${spec.name}: ${fmt.int(server.reqPerSec)} req/s (p99 ${fmt.ms(server.p99)} ms), bare node:http ${fmt.int(floor.reqPerSec)} req/s: ${fmt.pct(ratio)}`);
      rows.push([spec.name, ctx.db, fmt.int(page.body.length), fmt.int(server.reqPerSec), fmt.ms(server.p99), fmt.int(floor.reqPerSec), fmt.ms(floor.p99), fmt.pct(ratio)]);
    }
    ctx.section(
      `Hosted pages beside bare node:http (${ctx.db}, ${settings.connections} connections)`,
      markdownTable(['case', 'db', 'bytes', 'req/s', 'p99 ms', 'bare req/s', 'bare p99 ms', 'ratio'], rows, [false, false, true, true, true, true, true, true]),
    );
  },

  targets({ db, results }) {
    const checks: TargetCheck[] = [];
    for (const name of [PAGES_HOSTED, PAGES_FRAME]) {
      const server = results.get(name);
      const floor = floors.get(floorKey(db, name));
      if (!server || !floor) continue;
      const ratio = server.reqPerSec / floor.reqPerSec;
      const label = name.replace(/^pages: /, '').replace(/ \(render cache\)$/, '');
      checks.push({ target: `${label} ≥ ${fmt.pct(RATIO_TARGET)} of bare node:http serving the same bytes`, db, actual: fmt.pct(ratio), pass: ratio >= RATIO_TARGET });
      checks.push({ target: `${label} p99 ≤ ${P99_TARGET_MS} ms at ${settings.connections} connections`, db, actual: `${fmt.ms(server.p99)} ms`, pass: server.p99 <= P99_TARGET_MS });
    }
    return checks;
  },
};

/** The page as the load will get it (the first view renders it into the cache); its bytes become the floor's. */
async function fetchPage(baseUrl: string, spec: LoadSpec): Promise<{ body: Buffer; contentType: string }> {
  let last: Response | undefined;
  for (let i = 0; i < 2; i++) {
    last = await fetch(`${baseUrl}${spec.path}`, { headers: spec.headers });
    const body = Buffer.from(await last.arrayBuffer());
    if (last.status !== 200) throw new BenchError(`pages set-up: ${spec.path} answered ${last.status}: ${body.toString('utf8').slice(0, 200)}`);
    if (i === 1) return { body, contentType: last.headers.get('content-type') ?? 'text/html' };
  }
  throw new BenchError('pages set-up: unreachable');
}
