import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../helpers/harness';
import { waitFor } from '../helpers/webhooks';
import { childrenOf, freePort, get, startServerProcess, type ServerProcess } from '../helpers/server-process';

/**
 * Issue 49, item 9: under `npm start` with WEB_CONCURRENCY=2 the primary's scrape (METRICS_PORT, and /metrics with
 * METRICS_TOKEN on PORT) answers from the web processes that answer: while one is stopped (SIGSTOP: it listens but
 * cannot answer), after one died and while its successor starts, it is 200 with the figures of the other and
 * `fr_cluster_processes` says so; only when no process answers is it 503. The merge alone, with fake processes:
 * tests/no-database/cluster-metrics-merge.test.ts.
 */
const TOKEN = 'metrics-token-0123456789abcdef';
const N = 10;


interface Scrape {
  status: number;
  body: string;
  configured?: number;
  listening?: number;
  reporting?: number;
  /** GET /healthz answered, summed over the processes in the scrape. */
  healthz: number;
}

function read({ status, body }: { status: number; body: string }): Scrape {
  const gauge = (state: string) => {
    const m = body.match(new RegExp(`^fr_cluster_processes\\{state="${state}"\\} (\\d+)$`, 'm'));
    return m ? Number(m[1]) : undefined;
  };
  const healthz = [...body.matchAll(/^fr_http_requests_total\{method="GET",route="\/healthz",status="200"\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  return { status, body, configured: gauge('configured'), listening: gauge('listening'), reporting: gauge('reporting'), healthz };
}

const servers: ServerProcess[] = [];
const drops: (() => Promise<void>)[] = [];
// Whatever the test stopped is let go again, whatever happened: a stopped process outlives its primary.
const stopped = new Set<number>();
afterAll(async () => {
  for (const pid of stopped) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  for (const d of drops) await d().catch(() => undefined);
});

function pause(pid: number) {
  stopped.add(pid);
  process.kill(pid, 'SIGSTOP');
}
function resume(pid: number) {
  process.kill(pid, 'SIGCONT');
  stopped.delete(pid);
}

describe('cluster metrics while some web processes cannot answer', () => {
  it('answers 200 from the processes that answer, says how many, and 503 only when none does', async () => {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    drops.push(scratch.drop);
    const metricsPort = await freePort();
    const s = await startServerProcess({
      DATABASE_URL: scratch.url,
      WEB_CONCURRENCY: '2',
      RUN_WORKER: 'false',
      METRICS_TOKEN: TOKEN,
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: '127.0.0.1',
    });
    servers.push(s);
    let gone = false;
    void s.exited.then(() => (gone = true));
    const scrape = async () => read(await get(`http://127.0.0.1:${metricsPort}`, '/metrics'));
    /** Polls METRICS_PORT (the primary: no request on PORT is counted) until `holds`; returns that scrape. */
    const until = (what: string, holds: (r: Scrape) => boolean, timeoutMs = 60_000) =>
      waitFor(
        async () => {
          if (gone) throw new Error(`the cluster exited:\n${s.output()}`);
          const r = await scrape().catch(() => null);
          return r && holds(r) ? r : null;
        },
        { timeoutMs, what: `a scrape with ${what}` },
      );

    // Both processes listen and report. Nothing has asked PORT anything yet.
    const both = await until('both processes reporting', (r) => r.status === 200 && r.reporting === 2, 120_000);
    expect([both.configured, both.listening, both.healthz]).toEqual([2, 2, 0]);
    for (let i = 0; i < N; i++) expect((await get(s.baseUrl, '/healthz')).status).toBe(200);
    expect((await until(`${N} health checks counted`, (r) => r.healthz === N)).reporting).toBe(2);

    const pids = childrenOf(s.child.pid!);
    expect(pids).toHaveLength(2);

    // One process stopped: it still listens (the primary keeps asking it) but cannot answer. Each scrape answers
    // without it after its timeout, with the other's figures only; once it resumes, it is in again.
    const alone = new Map<number, number>();
    for (const [paused, other] of [pids, [...pids].reverse()]) {
      pause(paused);
      const partial = await until('one of two processes reporting', (r) => r.reporting === 1);
      expect(partial.status).toBe(200);
      expect([partial.configured, partial.listening]).toEqual([2, 2]);
      expect(partial.body).toMatch(/^process_resident_memory_bytes \d+/m);
      alone.set(other, partial.healthz);

      // /metrics on PORT asks the primary too. The round-robin may hand a connection to the stopped process (it
      // hangs until the process resumes); it hands no other to it until then, so one of two lands on the other.
      const viaPort = read(await Promise.any([0, 1].map(() => get(s.baseUrl, '/metrics', { authorization: `Bearer ${TOKEN}` }))));
      expect([viaPort.status, viaPort.reporting, viaPort.listening, viaPort.healthz]).toEqual([200, 1, 2, partial.healthz]);

      resume(paused);
      const whole = await until('both processes reporting again', (r) => r.reporting === 2);
      expect(whole.healthz).toBe(N);
    }
    // Each scrape held exactly the answering process's figures: the two of them make up the whole.
    expect([...alone.values()].every((n) => n > 0), JSON.stringify([...alone])).toBe(true);
    expect([...alone.values()].reduce((a, b) => a + b, 0)).toBe(N);

    // A process that dies stops counting at once; the scrape answers from the other while its successor starts.
    const [killed, survivor] = pids;
    process.kill(killed, 'SIGKILL');
    const starting = await until('one process listening', (r) => r.listening === 1);
    expect([starting.status, starting.configured, starting.reporting, starting.healthz]).toEqual([200, 2, 1, alone.get(survivor)]);
    const restarted = await until('both processes reporting after the restart', (r) => r.listening === 2 && r.reporting === 2, 120_000);
    // The new process starts from zero: the sum is the survivor's alone.
    expect(restarted.healthz).toBe(alone.get(survivor));

    // No process answers: then, and only then, the scrape fails.
    const now = childrenOf(s.child.pid!);
    expect(now).toHaveLength(2);
    for (const pid of now) pause(pid);
    const none = await scrape();
    expect(none.status).toBe(503);
    for (const pid of now) resume(pid);
    await until('both processes reporting after they resume', (r) => r.status === 200 && r.reporting === 2);

    s.child.kill('SIGTERM');
    expect(await s.exited, s.output()).toEqual({ code: 0, signal: null });
  }, 240_000);
});
