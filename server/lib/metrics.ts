import cluster from 'node:cluster';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { processState } from './process-container';

/**
 * The process's Prometheus instruments (issue 37). Labels are closed sets written in code (route templates,
 * outcomes, job kinds): never a raw path, an id, a tenant or anything a patient typed, so a scrape holds no PHI.
 * Held in the process container: Next.js may load a second copy of this module in the same process, and a metric may
 * be registered only once.
 */
function createInstruments() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // In a cluster the primary asks each process that listens for this registry and merges the answers
  // (server/cluster/cluster-metrics.ts). Installed with the registry: once per process, whichever module copy came first.
  if (cluster.isWorker) answerThePrimary(registry);
  const probes: { queue?: () => Promise<QueueDepth[]>; pool?: () => PoolStats | null; inFlight?: () => number } = {};

  const httpDuration = new Histogram({
    name: 'fr_http_request_duration_seconds',
    help: 'Time from the request arriving to the response finishing, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // The request count is the duration histogram's own count per label set, copied at scrape time: a request
  // records one instrument, not two (issue 35: each costs a label hash per request), and the two cannot disagree.
  new Counter({
    name: 'fr_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    async collect() {
      const { values } = await httpDuration.get();
      // Emptied and refilled with no await between, so scrapes that overlap never see a half-filled count.
      this.reset();
      for (const v of values) if (v.metricName === 'fr_http_request_duration_seconds_count') this.inc(v.labels, v.value);
    },
  });
  // Read at scrape time from the count the graceful shutdown waits on (server/http/lifecycle.ts), not kept twice.
  new Gauge({
    name: 'fr_http_requests_in_flight',
    help: 'Requests being answered now (event streams included).',
    registers: [registry],
    collect() {
      this.set(probes.inFlight?.() ?? 0);
    },
  });
  const sseStreams = new Gauge({ name: 'fr_event_streams_open', help: 'Open event streams (GET /v1/developer/events/stream).', registers: [registry] });
  const draining = new Gauge({ name: 'fr_process_draining', help: '1 once the process has been told to stop and drains its requests.', registers: [registry] });
  const rateLimitRefusals = new Counter({
    name: 'fr_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit (429), by limiter and mode.',
    labelNames: ['limiter', 'mode'] as const,
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: 'fr_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered, retry (failed, will retry), dead (no retry left, disabled endpoint or expired event), gone (410).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const dispatches = new Counter({
    name: 'fr_dispatches_total',
    help: 'Order dispatches to pharmacies by path (inline in the request, or the outbox job) and outcome.',
    labelNames: ['path', 'outcome'] as const,
    registers: [registry],
  });
  // Database-wide figures: every process reports the same value, so the cluster keeps one (max), not the sum.
  // Each gauge fills itself at scrape time (prom-client collects the metrics side by side) from one query per scrape.
  let reading: { at: number; rows: Promise<QueueDepth[] | null> } | null = null;
  const readQueue = () => {
    if (!reading || Date.now() - reading.at > 1_000) {
      const rows = probes.queue ? probes.queue().catch(() => null) : Promise.resolve([]);
      reading = { at: Date.now(), rows };
    }
    return reading.rows;
  };
  const queueGauge = (name: string, help: string, labelNames: string[], fill: (g: Gauge, rows: QueueDepth[]) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      aggregator: 'max',
      registers: [registry],
      async collect() {
        const rows = await readQueue();
        this.reset();
        if (rows) fill(this, rows);
      },
    });
  queueGauge('fr_jobs_pending', 'Outbox jobs waiting, by kind: due now (due="true") or scheduled later.', ['kind', 'due'], (g, rows) => {
    for (const r of rows) {
      g.set({ kind: r.kind, due: 'true' }, r.due);
      g.set({ kind: r.kind, due: 'false' }, r.later);
    }
  });
  queueGauge('fr_jobs_oldest_due_age_seconds', 'How long the oldest due, unfinished job of each kind has been due (0 when none is due).', ['kind'], (g, rows) => {
    for (const r of rows) g.set({ kind: r.kind }, r.oldestDueAgeSeconds);
  });
  queueGauge('fr_jobs_dead', 'Jobs given up after too many failures, by kind.', ['kind'], (g, rows) => {
    for (const r of rows) g.set({ kind: r.kind }, r.dead);
  });
  queueGauge('fr_jobs_leased', 'Jobs claimed by a worker whose lease has not ended.', [], (g, rows) => g.set(rows.reduce((n, r) => n + r.leased, 0)));
  new Gauge({
    name: 'fr_jobs_probe_ok',
    help: '1 when the scrape could read the job queue, 0 when the database did not answer in time.',
    aggregator: 'min',
    registers: [registry],
    async collect() {
      this.set((await readQueue()) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'fr_db_pool_connections',
    help: 'PostgreSQL pool connections of this process by state: total (open), idle, waiting (callers queued for one), max.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = probes.pool?.();
      if (!stats) return;
      for (const [state, value] of Object.entries(stats)) this.set({ state }, value);
    },
  });

  return { registry, probes, httpDuration, sseStreams, draining, rateLimitRefusals, webhookDeliveries, dispatches };
}

export interface QueueDepth {
  kind: string;
  due: number;
  later: number;
  dead: number;
  leased: number;
  oldestDueAgeSeconds: number;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export type Instruments = ReturnType<typeof createInstruments>;

export function metrics(): Instruments {
  return processState('metrics', createInstruments);
}

/**
 * Under `npm start` with WEB_CONCURRENCY > 1 (issue 49): the primary's question to one web process, and its answer,
 * the process's registry as `getMetricsAsJSON()` gives it (or why it could not). The primary merges the answers that
 * come within CLUSTER_ANSWER_MS and leaves the others out (server/cluster/cluster-metrics.ts).
 */
export const METRICS_COLLECT = 'fr:metrics-collect';
export const METRICS_COLLECTED = 'fr:metrics-collected';
/** How long the primary waits for each process's answer: above the queue probe's own bound (2 s, server/jobs/metrics-probes.ts). */
export const CLUSTER_ANSWER_MS = 3_000;

export interface MetricsCollect {
  type: typeof METRICS_COLLECT;
  id: string;
}

export interface MetricsCollected {
  type: typeof METRICS_COLLECTED;
  id: string;
  metrics?: MetricObjectWithValues<MetricValue<string>>[];
  error?: string;
}

function answerThePrimary(registry: Registry) {
  const reply = (answer: MetricsCollected) => {
    // A process whose channel has closed (it is exiting) has no one left to answer; the callback takes the error.
    if (process.connected) process.send?.(answer, undefined, undefined, () => undefined);
  };
  process.on('message', (msg: Partial<MetricsCollect> | null) => {
    if (msg?.type !== METRICS_COLLECT || typeof msg.id !== 'string') return;
    const { id } = msg;
    registry.getMetricsAsJSON().then(
      (metrics) => reply({ type: METRICS_COLLECTED, id, metrics }),
      (err: unknown) => reply({ type: METRICS_COLLECTED, id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}

// A forked web process answers the primary from the moment it loads this module, long before it listens (the
// primary asks only processes that listen): the registry, and with it the answering, are made here, not on first use.
if (cluster.isWorker) metrics();
