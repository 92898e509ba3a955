import { EventEmitter } from 'node:events';
import { Counter, Gauge, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { METRICS_COLLECT, METRICS_COLLECTED, type MetricsCollect } from '@/server/lib/metrics';
import { collectClusterMetrics, type MetricsPeer } from '@/server/cluster/cluster-metrics';

/**
 * Issue 49, item 9, the primary's merge on its own: fake web processes answer (or not) the primary's question as a
 * forked process does (server/lib/metrics.ts), and the scrape holds the figures of those that answered in time, says
 * how many in fr_cluster_processes, and fails only when none answered. The real cluster: tests/postgres/cluster-metrics.test.ts.
 */
type Behaviour = 'answers' | 'silent' | 'error' | 'closed' | 'throws';

class FakeProcess extends EventEmitter implements MetricsPeer {
  readonly registry = new Registry();
  readonly asked: MetricsCollect[] = [];
  constructor(
    public behaviour: Behaviour,
    requests: number,
    pool: number,
  ) {
    super();
    new Counter({ name: 'fr_test_requests_total', help: 'requests', registers: [this.registry] }).inc(requests);
    // A database-wide figure: every process reports the same, the cluster keeps one.
    new Gauge({ name: 'fr_test_queue_depth', help: 'queue', aggregator: 'max', registers: [this.registry] }).set(7);
    new Gauge({ name: 'fr_test_pool', help: 'pool', registers: [this.registry] }).set(pool);
  }

  send(message: MetricsCollect, callback: (error: Error | null) => void): boolean {
    this.asked.push(message);
    if (this.behaviour === 'throws') throw new Error('channel closed');
    if (this.behaviour === 'closed') {
      process.nextTick(callback, new Error('channel closed'));
      return false;
    }
    process.nextTick(callback, null);
    if (this.behaviour === 'answers') void this.answer(message);
    if (this.behaviour === 'error') setImmediate(() => this.emit('message', { type: METRICS_COLLECTED, id: message.id, error: 'collect failed' }));
    return true;
  }

  /** Answers a question, now or late (a process resumed after its timeout). IPC carries JSON. */
  async answer(message: MetricsCollect) {
    const metrics = JSON.parse(JSON.stringify(await this.registry.getMetricsAsJSON()));
    this.emit('message', { type: METRICS_COLLECTED, id: message.id, metrics });
  }
}

const value = (body: string, series: string) => {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
const processes = (body: string) => ({
  configured: value(body, 'fr_cluster_processes{state="configured"}'),
  listening: value(body, 'fr_cluster_processes{state="listening"}'),
  reporting: value(body, 'fr_cluster_processes{state="reporting"}'),
});

describe('the cluster primary merging its processes’ metrics', () => {
  it('sums what every process answered and says all of them report', async () => {
    const a = new FakeProcess('answers', 3, 2);
    const b = new FakeProcess('answers', 4, 5);
    const scrape = await collectClusterMetrics(
      [
        { slot: 0, peer: a },
        { slot: 1, peer: b },
      ],
      { configured: 2, timeoutMs: 5_000 },
    );
    expect(scrape.reporting).toBe(2);
    expect(scrape.leftOut).toEqual([]);
    expect(value(scrape.body, 'fr_test_requests_total')).toBe(7);
    expect(value(scrape.body, 'fr_test_pool')).toBe(7);
    expect(value(scrape.body, 'fr_test_queue_depth')).toBe(7);
    expect(processes(scrape.body)).toEqual({ configured: 2, listening: 2, reporting: 2 });
    expect(scrape.body).toContain('# TYPE fr_cluster_processes gauge');
    expect(scrape.contentType).toContain('text/plain');
    expect(a.asked.map((m) => m.type)).toEqual([METRICS_COLLECT]);
  });

  it('leaves out a process that does not answer in time, errs or cannot be reached, and answers from the rest', async () => {
    const up = new FakeProcess('answers', 3, 2);
    const silent = new FakeProcess('silent', 100, 100);
    const erring = new FakeProcess('error', 100, 100);
    const closed = new FakeProcess('closed', 100, 100);
    const throwing = new FakeProcess('throws', 100, 100);
    const scrape = await collectClusterMetrics(
      [
        { slot: 0, peer: up },
        { slot: 1, peer: silent },
        { slot: 2, peer: erring },
        { slot: 3, peer: closed },
        { slot: 4, peer: throwing },
      ],
      { configured: 6, timeoutMs: 100 },
    );
    expect(scrape.reporting).toBe(1);
    expect(scrape.leftOut).toEqual([
      { slot: 1, reason: 'timeout' },
      { slot: 2, reason: 'error' },
      { slot: 3, reason: 'closed' },
      { slot: 4, reason: 'closed' },
    ]);
    expect(value(scrape.body, 'fr_test_requests_total')).toBe(3);
    expect(value(scrape.body, 'fr_test_pool')).toBe(2);
    expect(processes(scrape.body)).toEqual({ configured: 6, listening: 5, reporting: 1 });
    // No listener is left behind on any process, answered or not.
    for (const p of [up, silent, erring, closed, throwing]) expect(p.listenerCount('message')).toBe(0);

    // The silent one answers late (a process resumed): its answer is dropped, and the next scrape asks afresh.
    await silent.answer(silent.asked[0]);
    silent.behaviour = 'answers';
    const next = await collectClusterMetrics(
      [
        { slot: 0, peer: up },
        { slot: 1, peer: silent },
      ],
      { configured: 6, timeoutMs: 5_000 },
    );
    expect(value(next.body, 'fr_test_requests_total')).toBe(103);
    expect(processes(next.body)).toEqual({ configured: 6, listening: 2, reporting: 2 });
  });

  it('fails only when no process answered (or none listens yet)', async () => {
    await expect(collectClusterMetrics([{ slot: 0, peer: new FakeProcess('silent', 1, 1) }], { configured: 2, timeoutMs: 50 })).rejects.toThrow(
      'none of the 1 web processes answered within 50 ms',
    );
    await expect(collectClusterMetrics([], { configured: 2 })).rejects.toThrow('no web process listens yet');
  });
});
