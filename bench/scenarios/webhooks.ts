import { BenchError, fmt, log, markdownTable, settings } from '../lib';
import { openPipeline, type Pipeline } from '../webhooks-pipeline';
import type { Scenario, TargetCheck } from './types';

const STEADY_RATE = 200;
const BURST_EMITTERS = 16;

interface Figures {
  db: string;
  workers: number;
  label: string;
  emittedPerSec: number;
  deliveriesPerSec: number;
  p50: number;
  p99: number;
  duplicates: number;
}
const figures: Figures[] = [];

const ms = (n: number) => (Number.isNaN(n) ? '—' : fmt.ms(n));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Emits for `seconds`, either at `rate` events/s or as fast as `BURST_EMITTERS` concurrent emitters can. */
async function emitFor(p: Pipeline, seconds: number, rate?: number): Promise<{ ids: string[]; startedAt: number }> {
  const ids: string[] = [];
  const startedAt = Date.now();
  const end = startedAt + seconds * 1000;
  const one = async () => ids.push((await p.emit()).id);
  if (rate) {
    const inFlight = new Set<Promise<unknown>>();
    while (Date.now() < end) {
      const due = Math.floor(((Date.now() - startedAt) / 1000) * rate) - ids.length - inFlight.size;
      for (let i = 0; i < due; i++) {
        const job: Promise<unknown> = one().finally(() => inFlight.delete(job));
        inFlight.add(job);
      }
      await new Promise((ok) => setTimeout(ok, 5));
    }
    await Promise.all(inFlight);
  } else {
    await Promise.all(Array.from({ length: BURST_EMITTERS }, async () => { while (Date.now() < end) await one(); }));
  }
  return { ids, startedAt };
}

async function waitDelivered(p: Pipeline, ids: string[], what: string) {
  const until = Date.now() + 180_000;
  while (ids.some((id) => !p.receiver.arrivals.has(id))) {
    if (Date.now() > until) throw new BenchError(`webhooks ${what}: ${ids.filter((id) => !p.receiver.arrivals.has(id)).length} events never delivered`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
  return ids.map((id) => p.receiver.arrivals.get(id)!);
}

/** 200 events/s with the workers running: how long an event takes to reach the receiver. */
async function steady(p: Pipeline, db: string, workers: number) {
  const label = `steady ${STEADY_RATE} events/s`;
  log(`${db.padEnd(8)} webhooks ${label}, ${workers} worker(s): ${settings.duration}s`);
  const repeatsBefore = p.receiver.duplicates();
  const { ids, startedAt } = await emitFor(p, settings.duration, STEADY_RATE);
  const arrivals = await waitDelivered(p, ids, `${label} on ${db}`);
  const latencies = arrivals.map((a) => a.latencyMs).sort((a, b) => a - b);
  const lastAt = Math.max(...arrivals.map((a) => a.at));
  figures.push({
    db, workers, label,
    emittedPerSec: ids.length / settings.duration,
    deliveriesPerSec: ids.length / ((lastAt - startedAt) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    duplicates: p.receiver.duplicates() - repeatsBefore,
  });
}

/**
 * Capacity, each side on its own: emitters run flat out with the workers stopped (events emitted/s), then
 * the workers start and drain that backlog (deliveries/s, first claim to last arrival).
 */
async function backlog(p: Pipeline, db: string, workers: number) {
  const label = `backlog (${BURST_EMITTERS} emitters, then drain)`;
  log(`${db.padEnd(8)} webhooks ${label}, ${workers} worker(s): ${settings.duration}s of emitting`);
  await p.stopWorkers();
  const repeatsBefore = p.receiver.duplicates();
  const { ids } = await emitFor(p, settings.duration);
  const drainStart = Date.now();
  await p.startWorkers(workers);
  const arrivals = await waitDelivered(p, ids, `${label} on ${db}`);
  const lastAt = Math.max(...arrivals.map((a) => a.at));
  figures.push({
    db, workers, label,
    emittedPerSec: ids.length / settings.duration,
    deliveriesPerSec: ids.length / ((lastAt - drainStart) / 1000),
    p50: Number.NaN,
    p99: Number.NaN,
    duplicates: p.receiver.duplicates() - repeatsBefore,
  });
}

/**
 * Webhook delivery through the outbox: one enabled endpoint on a local receiver; a steady 200 events/s
 * (event-to-delivery latency, from the event's createdAt to its arrival) and a backlog case (events
 * emitted/s, deliveries/s); one worker, and two on PostgreSQL.
 */
export const webhooksScenario: Scenario = {
  id: 'webhooks',

  async run(ctx) {
    const pipeline = await openPipeline(ctx.db);
    for (const workers of ctx.db === 'postgres' ? [1, 2] : [1]) {
      await pipeline.startWorkers(workers);
      await emitFor(pipeline, Math.max(settings.warmup, 1), STEADY_RATE); // warm-up, unmeasured
      await steady(pipeline, ctx.db, workers);
      await backlog(pipeline, ctx.db, workers);
      await pipeline.stopWorkers();
    }
    const rows = figures.filter((f) => f.db === ctx.db);
    ctx.section(
      `Webhook delivery (${ctx.db})`,
      markdownTable(
        ['case', 'db', 'workers', 'events emitted/s', 'deliveries/s', 'p50 ms', 'p99 ms', 'repeats'],
        rows.map((f) => [f.label, f.db, String(f.workers), fmt.int(f.emittedPerSec), fmt.int(f.deliveriesPerSec), ms(f.p50), ms(f.p99), String(f.duplicates)]),
        [false, false, true, true, true, true, true, true],
      ),
    );
  },

  targets({ db }) {
    if (db !== 'postgres') return [];
    const checks: TargetCheck[] = [];
    for (const f of figures.filter((x) => x.db === db)) {
      const who = `${f.workers} worker${f.workers > 1 ? 's' : ''}`;
      if (f.label.startsWith('steady')) {
        checks.push({ target: `webhooks: event→delivery p99 ≤ 500 ms at ${STEADY_RATE} events/s (${who})`, db, actual: `${fmt.ms(f.p99)} ms`, pass: f.p99 <= 500 });
      } else {
        checks.push({ target: `webhooks: ≥ 500 deliveries/s (${who})`, db, actual: `${fmt.int(f.deliveriesPerSec)}/s`, pass: f.deliveriesPerSec >= 500 });
      }
    }
    return checks;
  },
};
