import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from './helpers/harness';
import { waitFor } from './helpers/webhooks';
import { childrenOf, get, startServerProcess, untilListening, type ServerProcess } from './helpers/server-process';

/**
 * Issue 37, item 1: `npm start` with WEB_CONCURRENCY=N forks N web processes on one port; exactly one of them
 * runs the background worker; /metrics merges all of them; SIGTERM stops them all and the primary exits 0.
 * The embedded database refuses N > 1 before anything starts.
 */
const TOKEN = 'metrics-token-0123456789abcdef';


/** Until both kinds of process answer /readyz: the one with the worker (`ok`) and one without (`disabled`). */
async function bothKinds(baseUrl: string): Promise<number> {
  const seen = new Set<string>();
  let probes = 0;
  await waitFor(
    async () => {
      const r = await get(baseUrl, '/readyz');
      probes++;
      if (r.status === 200) seen.add(JSON.parse(r.body).checks.worker);
      return seen.has('ok') && seen.has('disabled');
    },
    { what: 'one process with the worker and one without' },
  );
  return probes;
}
const servers: ServerProcess[] = [];
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  for (const d of drops) await d().catch(() => undefined);
});

describe('WEB_CONCURRENCY', () => {
  it('is refused above 1 on the embedded database, with the reason', async () => {
    const s = await startServerProcess({ DATABASE_URL: undefined, PGLITE_DATA_DIR: 'memory://', WEB_CONCURRENCY: '2' });
    servers.push(s);
    expect((await s.exited).code).toBe(1);
    expect(s.output()).toContain('WEB_CONCURRENCY above 1 needs DATABASE_URL (PostgreSQL): the embedded database serves a single process');
  });

  it.skipIf(!process.env.DATABASE_URL)('forks N processes sharing the port, one worker among them, merged metrics, exit 0 on SIGTERM', async () => {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    drops.push(scratch.drop);
    const s = await startServerProcess({ DATABASE_URL: scratch.url, WEB_CONCURRENCY: '2', RUN_WORKER: 'true', METRICS_TOKEN: TOKEN });
    servers.push(s);
    await untilListening(s);
    // Each probe on a connection of its own: the primary hands connections round-robin to the two processes.
    const probes = await bothKinds(s.baseUrl);
    const text = (await get(s.baseUrl, '/metrics', { authorization: `Bearer ${TOKEN}` })).body;
    // Counted by both processes, summed by the primary: every probe is there whichever process answered it.
    const counted = [...text.matchAll(/^fr_http_requests_total\{method="GET",route="\/readyz",status="\d+"\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
    expect(counted, text.split('\n').filter((l) => l.includes('readyz')).join('\n')).toBe(probes);

    // kill -9 of every web process: the primary starts one again in each slot, slot 0 with the worker.
    const before = childrenOf(s.child.pid!);
    expect(before).toHaveLength(2);
    for (const pid of before) process.kill(pid, 'SIGKILL');
    await waitFor(() => {
      const now = childrenOf(s.child.pid!);
      return now.length === 2 && now.every((p) => !before.includes(p));
    }, { what: 'two new web processes' });
    await untilListening(s);
    await bothKinds(s.baseUrl);
    s.child.kill('SIGTERM');
    expect(await s.exited, s.output()).toEqual({ code: 0, signal: null });
  }, 180_000);
});
