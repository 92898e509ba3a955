import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type PrometheusContentType } from 'prom-client';
import { CLUSTER_ANSWER_MS, METRICS_COLLECT, METRICS_COLLECTED, type MetricsCollect, type MetricsCollected } from '@/server/lib/metrics';

/** A web process as the primary sees it: a cluster Worker (node:cluster), or a stand-in in a test. */
export interface MetricsPeer {
  send(message: MetricsCollect, callback: (error: Error | null) => void): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

type LeftOutReason = 'timeout' | 'error' | 'closed';

type RegistryJson = MetricObjectWithValues<MetricValue<string>>[];
type Answer = { metrics: RegistryJson } | { leftOut: LeftOutReason };

interface ClusterScrape {
  body: string;
  contentType: string;
  /** How many processes' figures the body holds. */
  reporting: number;
  /** The processes asked that are not in it, and why. */
  leftOut: { slot: number; reason: LeftOutReason }[];
}

const PROCESSES_METRIC = 'fr_cluster_processes';

/** One process's registry, or why it is left out: no answer within `timeoutMs`, an error, a closed channel. */
function ask(peer: MetricsPeer, timeoutMs: number): Promise<Answer> {
  const id = randomUUID();
  return new Promise((resolve) => {
    const done = (answer: Answer) => {
      clearTimeout(timer);
      peer.off('message', onMessage);
      resolve(answer);
    };
    // An answer that comes after the timeout finds no listener: it is dropped, and counts in no later scrape.
    const onMessage = (message: unknown) => {
      const m = message as Partial<MetricsCollected> | null;
      if (m?.type !== METRICS_COLLECTED || m.id !== id) return;
      done(Array.isArray(m.metrics) ? { metrics: m.metrics } : { leftOut: 'error' });
    };
    const timer = setTimeout(() => done({ leftOut: 'timeout' }), timeoutMs);
    peer.on('message', onMessage);
    try {
      peer.send({ type: METRICS_COLLECT, id }, (err) => {
        if (err) done({ leftOut: 'closed' });
      });
    } catch {
      done({ leftOut: 'closed' });
    }
  });
}

/**
 * The cluster's scrape (issue 49): asks every process that listens for its registry, each with its own timeout, and
 * merges the answers with prom-client's `AggregatorRegistry.aggregate` (counters and histograms summed, gauges by
 * their own aggregator: database-wide ones once). A process that does not answer in time is left out rather than
 * failing the scrape, so a scrape during a rolling restart or while one process is busy still has data; only when
 * no process answers does it fail. `fr_cluster_processes{state}` says what the figures cover: `configured`
 * (WEB_CONCURRENCY), `listening` (started and serving, hence asked), `reporting` (answered this scrape).
 */
export async function collectClusterMetrics(
  processes: { slot: number; peer: MetricsPeer }[],
  { configured, timeoutMs = CLUSTER_ANSWER_MS }: { configured: number; timeoutMs?: number },
): Promise<ClusterScrape> {
  const answers = await Promise.all(processes.map(({ peer }) => ask(peer, timeoutMs)));
  const registries: RegistryJson[] = [];
  const leftOut: ClusterScrape['leftOut'] = [];
  answers.forEach((answer, i) => {
    if ('metrics' in answer) registries.push(answer.metrics);
    else leftOut.push({ slot: processes[i].slot, reason: answer.leftOut });
  });
  if (registries.length === 0) {
    throw new Error(processes.length === 0 ? 'no web process listens yet' : `none of the ${processes.length} web processes answered within ${timeoutMs} ms`);
  }
  const gauge = {
    name: PROCESSES_METRIC,
    help: 'Web processes of this npm start (WEB_CONCURRENCY) by state: configured, listening (started and serving), reporting (their figures are in this scrape).',
    type: 'gauge',
    aggregator: 'first',
    values: [
      { labels: { state: 'configured' }, value: configured },
      { labels: { state: 'listening' }, value: processes.length },
      { labels: { state: 'reporting' }, value: registries.length },
    ],
  };
  const merged = AggregatorRegistry.aggregate<PrometheusContentType>([...registries, [gauge]]);
  return { body: await merged.metrics(), contentType: merged.contentType, reporting: registries.length, leftOut };
}
