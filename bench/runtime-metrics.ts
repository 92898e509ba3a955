import { randomBytes } from 'node:crypto';

/**
 * Issue 55 item 2: where a case's tail comes from, read off the server itself while the case runs. The project's
 * server is started with this METRICS_TOKEN (bench/servers.ts) and its /metrics (prom-client) is read before and
 * after the measured run, and sampled every SAMPLE_MS during it:
 * - GC: time and count of pauses by kind (nodejs_gc_duration_seconds), and how many lasted 10 ms or more;
 * - the event loop's delay (nodejs_eventloop_lag_*, which prom-client resets at each scrape, so the second scrape
 *   covers exactly the run): a long synchronous task shows as a high maximum;
 * - the PostgreSQL pool's queue (fr_db_pool_connections{state="waiting"}): callers waiting for a connection.
 * The scrapes cost the server a few milliseconds per second, the same for every case.
 */
export const BENCH_METRICS_TOKEN = randomBytes(24).toString('base64url');
const SAMPLE_MS = 250;

export interface RuntimeFigures {
  /** GC time during the run (ms), by kind (minor = scavenge, major = mark-compact, incremental marking, weak callbacks). */
  gcMs: Record<string, number>;
  gcCount: number;
  /** Pauses of 10 ms or more (all kinds). */
  gcPausesOver10ms: number;
  loopDelayP99Ms: number | null;
  loopDelayMaxMs: number | null;
  /** Callers queued for a pool connection: the largest sample and the mean of the samples (PostgreSQL only). */
  poolWaitingMax: number | null;
  poolWaitingMean: number | null;
}

type Samples = Map<string, number>;

async function scrape(baseUrl: string): Promise<Samples | null> {
  try {
    const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } });
    if (!res.ok) return null;
    const out: Samples = new Map();
    for (const line of (await res.text()).split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const at = line.lastIndexOf(' ');
      out.set(line.slice(0, at), Number(line.slice(at + 1)));
    }
    return out;
  } catch {
    return null;
  }
}

const sumOver = (s: Samples, test: (name: string) => boolean) => [...s].reduce((n, [name, v]) => (test(name) ? n + v : n), 0);

/** Starts reading the server's runtime for one measured run; `stop()` gives the run's figures (null: no /metrics). */
export async function sampleRuntime(baseUrl: string) {
  const before = await scrape(baseUrl);
  const waiting: number[] = [];
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void scrape(baseUrl).then((s) => {
      busy = false;
      const w = s?.get('fr_db_pool_connections{state="waiting"}');
      if (w !== undefined) waiting.push(w);
    });
  }, SAMPLE_MS);
  return {
    async stop(): Promise<RuntimeFigures | null> {
      clearInterval(timer);
      const after = await scrape(baseUrl);
      if (!before || !after) return null;
      const delta = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
      const gcMs: Record<string, number> = {};
      for (const name of after.keys()) {
        const kind = /^nodejs_gc_duration_seconds_sum\{kind="(\w+)"\}$/.exec(name)?.[1];
        if (kind) gcMs[kind] = delta(name) * 1000;
      }
      const bucketDelta = (le: string) => sumOver(after, (n) => n.startsWith('nodejs_gc_duration_seconds_bucket') && n.includes(`le="${le}"`)) - sumOver(before, (n) => n.startsWith('nodejs_gc_duration_seconds_bucket') && n.includes(`le="${le}"`));
      const seconds = (name: string) => (after.has(name) ? after.get(name)! * 1000 : null);
      return {
        gcMs,
        gcCount: bucketDelta('+Inf'),
        gcPausesOver10ms: bucketDelta('+Inf') - bucketDelta('0.01'),
        loopDelayP99Ms: seconds('nodejs_eventloop_lag_p99_seconds'),
        loopDelayMaxMs: seconds('nodejs_eventloop_lag_max_seconds'),
        poolWaitingMax: waiting.length ? Math.max(...waiting) : null,
        poolWaitingMean: waiting.length ? waiting.reduce((a, b) => a + b, 0) / waiting.length : null,
      };
    },
  };
}
