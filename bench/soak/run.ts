import os from 'node:os';
import pg from 'pg';
import { BenchError, api, log } from '../lib';
import { setupProvider, setupTenant } from '../scenarios/orders';
import { ORIGIN, runFlowOnce, setupWorld } from '../scenarios/flows';
import { checkInvariants, type Acknowledged, type Invariant } from './invariants';
import { call, fault, newKey, probeRate, startConsumer, startReceiver, tally, type RateProbe } from './load';
import { LIMIT_PER_SEC, deployment, pgControl, redisControl, startWeb, startWorker, type Managed } from './processes';

export interface SoakOptions {
  databaseUrl: string;
  redisUrl: string;
  seconds: number;
  /** SOAK_FAULTS=no-pg,no-redis,no-kill-web,no-kill-worker skip those faults. */
  skip: Set<string>;
}

export interface SoakResult {
  invariants: Invariant[];
  pass: boolean;
  markdown: string;
}

const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())));

/**
 * Two web processes on two ports and one separate worker on one PostgreSQL and one Redis, under mixed load
 * over both (orders created and approved, flow runs to submit, beacons, webhook deliveries, two event-stream
 * consumers) for `seconds`, with faults at fixed points of the run; then the invariants (invariants.ts).
 */
export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const d = deployment(o.databaseUrl, o.redisUrl);
  const started = Date.now();
  log(`soak: starting two web processes and a worker on ${new URL(o.databaseUrl).pathname.slice(1)} + ${o.redisUrl}`);
  const webA = await startWeb(d, 'web A');
  const webB = await startWeb(d, 'web B');
  const worker = await startWorker(d);
  const bases = [webA.baseUrl!, webB.baseUrl!];

  // Set-up through the API on process A: the orders world of bench/scenarios/orders.ts, the flows world of flows.ts.
  const tenant = await setupTenant(bases[0], d.opsKey, 'soak');
  const provider = await setupProvider(bases[0], d.opsKey, tenant.tenantId, 150, `soak-${Date.now().toString(36)}`);
  const flows = await setupWorld(bases[1], d.opsKey, 'soak');
  const receiver = await startReceiver();
  await api(bases[0], 'POST', '/v1/developer/webhooks', { bearer: tenant.key, body: { url: receiver.url, events: ['order.routed', 'order.submitted'] } });
  const liveKey = async (name: string) =>
    (await api<{ key: string }>(bases[0], 'POST', `/v1/developer/keys/ops/tenants/${tenant.tenantId}`, { bearer: d.opsKey, body: { name, mode: 'live' } })).key;
  const consumers = [startConsumer('consumer 1', bases, 0, tenant.key), startConsumer('consumer 2', bases, 1, tenant.key)];
  log(`soak: set up in ${((Date.now() - started) / 1000).toFixed(0)} s; load for ${o.seconds} s`);

  const ack: Acknowledged = { orders: [], approvals: [], submissions: [], beacons: 0 };
  const t0 = Date.now();
  const end = t0 + o.seconds * 1000;
  const live = () => Date.now() < end;
  const sessions: string[] = [];
  let n = 0;
  const orderLoop = async () => {
    while (live()) {
      const body = JSON.parse(tenant.bodies[n++ % tenant.bodies.length]);
      try {
        const created = await call(bases, 'POST /v1/orders', 'POST', '/v1/orders', { bearer: tenant.key, body, headers: { 'idempotency-key': newKey() } });
        if (created.status !== 201 && created.status !== 200) continue;
        const id = created.body.id as string;
        ack.orders.push(id);
        const approved = await call(bases, 'POST /v1/orders/{id}/approve', 'POST', `/v1/orders/${id}/approve`, { bearer: provider.token, body: {}, headers: { 'idempotency-key': newKey() } });
        if (approved.status === 201 || approved.status === 200) ack.approvals.push({ id, status: approved.body.status as string });
      } catch {
        // counted in the tally; the write was not acknowledged
      }
    }
  };
  const flowLoop = async () => {
    const post = async (kind: string, path: string, body: unknown, expect: number, extra: Record<string, string> = {}) => {
      const r = await call(bases, `POST flow ${kind}`, 'POST', path, { body, headers: { origin: ORIGIN, ...extra } });
      if (r.status !== expect) throw new Error(`${kind}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      if (kind === 'session') sessions.push(r.body.sessionId as string);
      return r.body;
    };
    while (live()) {
      try {
        const out = await runFlowOnce(post, flows, n++);
        ack.submissions.push(out.submissionId);
      } catch {
        // not acknowledged
      }
    }
  };
  const beaconLoop = async () => {
    while (live()) {
      const s = sessions.at(-1 - Math.floor(Math.random() * Math.min(sessions.length, 50)));
      if (!s) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const r = await call(bases, 'POST flow beacon', 'POST', `/v1/public/flows/${flows.embed}/sessions/${s}/events`, { body: { type: 'view' }, headers: { origin: ORIGIN } }).catch(() => null);
      if (r && r.status < 300) ack.beacons++;
      await new Promise((r2) => setTimeout(r2, 20));
    }
  };
  const workers = Number(process.env.SOAK_CLIENTS ?? 4);
  const load = Promise.all([...Array.from({ length: workers }, orderLoop), ...Array.from({ length: Math.max(1, workers / 2) }, flowLoop), beaconLoop()]);

  // Faults, each at its point of the run (fractions of SOAK_SECONDS), one at a time.
  const notes: string[] = [];
  const probes: { label: string; probe: RateProbe; perProcess: boolean }[] = [];
  const at = (f: number) => sleepUntil(t0 + f * o.seconds * 1000);
  const kill = async (m: Managed, what: string) => {
    fault.now = `kill -9 ${what}`;
    m.kill9();
    await m.restart();
    notes.push(`${what}: killed (SIGKILL) at ${((Date.now() - t0) / 1000).toFixed(0)} s and started again`);
    fault.now = 'none';
  };
  const probeSeconds = o.seconds >= 120 ? 20 : 10;
  const faults = (async () => {
    await at(0.15);
    if (!o.skip.has('no-kill-web')) await kill(webA, 'web A');
    await at(0.3);
    if (!o.skip.has('no-kill-worker')) await kill(worker, 'the worker');
    await at(0.35);
    // Consumer 2 reads from web B, which no fault stops: its connection is dropped so that it resumes on A too.
    consumers[1].hop();
    notes.push(`consumer 2: its stream dropped by the client at ${((Date.now() - t0) / 1000).toFixed(0)} s, resumed on web A with Last-Event-ID`);
    await at(0.4);
    probes.push({ label: 'Redis up', probe: await probeRate(bases, await liveKey('soak rate up'), probeSeconds, LIMIT_PER_SEC * 3), perProcess: false });
    const redis = o.skip.has('no-redis') ? { skipped: 'SOAK_FAULTS=no-redis' } : redisControl(o.redisUrl);
    if ('skipped' in redis) notes.push(`Redis stop/start skipped: ${redis.skipped}`);
    else {
      const key = await liveKey('soak rate down');
      fault.now = 'Redis down';
      redis.stop();
      notes.push(`Redis stopped at ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      probes.push({ label: 'Redis down', probe: await probeRate(bases, key, probeSeconds, LIMIT_PER_SEC * 3), perProcess: true });
      redis.start();
      notes.push(`Redis started again at ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      fault.now = 'none';
    }
    await at(0.8);
    const pgc = o.skip.has('no-pg') ? { skipped: 'SOAK_FAULTS=no-pg' } : pgControl();
    if ('skipped' in pgc) notes.push(`PostgreSQL restart skipped: ${pgc.skipped}`);
    else {
      fault.now = 'PostgreSQL restart';
      pgc.restart();
      notes.push(`PostgreSQL restarted at ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      // The restart command returns once PostgreSQL accepts connections again; give the pools a few seconds to notice.
      await new Promise((r) => setTimeout(r, 3000));
      fault.now = 'none';
    }
  })();
  await Promise.all([load, faults]);
  const loadSeconds = (Date.now() - t0) / 1000;
  log(`soak: load over after ${loadSeconds.toFixed(0)} s (${tally.requests} requests); waiting for the queue and the streams to settle`);

  const sql = new pg.Client({ connectionString: o.databaseUrl });
  sql.on('error', (err) => log(`soak: checking connection lost: ${err.message}`));
  await sql.connect();
  try {
    const invariants = await checkInvariants({ sql, tenant, flowsTenantId: flows.tenantId, ack, receipts: receiver.receipts, consumers, probes, limit: LIMIT_PER_SEC, tally });
    for (const c of consumers) c.stop();
    const pass = invariants.every((i) => i.pass);
    const markdown = report(o, invariants, notes, ack, loadSeconds);
    return { invariants, pass, markdown };
  } finally {
    await sql.end();
    await Promise.all([webA.stop(), webB.stop(), worker.stop()]);
    if (tally.requests === 0) throw new BenchError('soak: no request was sent');
  }
}

function report(o: SoakOptions, invariants: Invariant[], notes: string[], ack: Acknowledged, seconds: number): string {
  const rows = invariants.map((i) => `| ${i.name} | ${i.expected} | ${i.actual} | ${i.pass ? 'pass' : '**FAIL**'} |`);
  return [
    `Soak: ${seconds.toFixed(0)} s of load on two web processes and one worker (PostgreSQL + Redis); ${ack.orders.length} orders acknowledged, ${ack.approvals.length} approvals, ${ack.submissions.length} flow submissions, ${ack.beacons} beacons, ${tally.requests} requests in all (${(tally.requests / seconds).toFixed(0)}/s).`,
    '',
    `Machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} at the end (the processes, PostgreSQL, Redis and the load share it).`,
    '',
    ...notes.map((n) => `- ${n}`),
    '',
    '| invariant | expected | actual | result |',
    '|---|---|---|---|',
    ...rows,
    '',
    `Faults skipped on request: ${[...o.skip].join(', ') || 'none'}.`,
  ].join('\n');
}
