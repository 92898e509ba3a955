import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { Agent, Pool, type Dispatcher } from 'undici';
import { STATS_SHARDS } from '@/server/domain/flows/runtime/counting';
import type { QuestionnaireDocument } from '@/server/domain/intake/questionnaire-schema';
import { eligibleAnswerSets, fortyItemQuestionnaire } from '../intake-engine';
import { BenchError, setupCall, type SetupCallOptions, cpuMeter, fmt, log, markdownTable, msPer, parallel, sampleRss, settings } from '../lib';
import { analyze, openSql, setupProvider, setupTenant } from './orders';
import type { Scenario, TargetCheck } from './types';
import { compareWithSameSql, sameSqlSection, sameSqlTargets, type SameSqlFigures } from './flows-same-sql';

export const FLOWS_BEACONS = 'flows: POST /v1/public/flows/{embedKey}/sessions/{id}/events (live, 500/s offered, each counted)';
export const FLOWS_STATS = 'flows: GET /v1/flows/{id}/stats (90 days, 1,000,000 sessions)';
export const FLOWS_STATS_PACED = 'flows: GET /v1/flows/{id}/stats (90 days, 1,000,000 sessions, 100/s offered)';

const RUNS_PER_SEC_TARGET = 150;
const BEACON_RATE = 500;
const BEACON_P99_TARGET_MS = 30;
const STATS_P99_TARGET_MS = 20;
/** Issue 24: what a running experiment may add to a session's creation at p50 (the lookup + bucket + exposure event). */
const ASSIGN_P50_TARGET_MS = 1;
/** A console dashboard's load: the stats target is about the read's cost over 1,000,000 sessions, not saturation. */
const STATS_RATE = 100;
const PREFILL_SESSIONS = 1_000_000;
const PREFILL_DAYS = 90;
/** Open sessions made for the beacon case: each gets 4 beacons (view + 3 step views), every one a first, so each bumps the aggregate. */
const BEACON_SESSIONS = 2500;
/** Loopback addresses of their own (orders 0–49, intake 100–109). */
const PROVIDER_ADDRESS = 120;
export const ORIGIN = 'https://clinic.example';
const QUESTIONNAIRE_KEY = 'bench-flow';
const CONSENT_VERSION = '2026-01';
const STEPS = ['health', 'consent', 'contact'] as const;

interface Latency {
  p50: number;
  p99: number;
}

export interface RunFigures {
  runsPerSec: number;
  runs: number;
  seconds: number;
  requests: number;
  failures: number;
  firstFailure?: string;
  byKind: Record<string, Latency>;
  run: Latency;
  cpuMsPerRun: { server: number | null; postgres: number | null };
  peakRssMb: number | null;
}

interface Figures {
  db: string;
  setupMs: number;
  eligibleSets: number;
  runs?: RunFigures;
  /** Issue 35: the project's rounds against the same-SQL reference's (PostgreSQL only). */
  sameSql?: SameSqlFigures | null;
  prefill?: string;
  counts?: { text: string; pass: boolean };
  locks?: string;
  cpuByKind?: Record<string, { server: number | null; postgres: number | null }>;
  assignment?: { without: AssignmentCase; with: AssignmentCase & { variants: number } };
}
const figures: Figures[] = [];

const call = <T>(dispatcher: Dispatcher, baseUrl: string, method: 'GET' | 'POST' | 'PATCH', pathname: string, opts: SetupCallOptions = {}): Promise<T> =>
  setupCall<T>('flows set-up: ', dispatcher, baseUrl, method, pathname, opts).then((r) => r.body);

const eligibleAnswers = (doc: QuestionnaireDocument) => eligibleAnswerSets(doc, 'flows');

export interface World {
  tenantId: string;
  liveKey: string;
  flowId: string;
  versionId: string;
  embed: string;
  answers: Record<string, unknown>[];
}

/**
 * Everything through the API, live mode: product and protocol, the 40-item questionnaire published and
 * approved by an MFA provider, a flow of three clinical steps (all 40 items on one medical page, consent,
 * contact) created, published and approved by the provider, and an embed key serving it from ORIGIN.
 */
export async function setupWorld(baseUrl: string, opsKey: string, db: string): Promise<World> {
  const agent = new Agent();
  try {
    const t = await setupTenant(baseUrl, opsKey, `${db}, flows`);
    const { key: liveKey } = await call<{ key: string }>(agent, baseUrl, 'POST', `/v1/developer/keys/ops/tenants/${t.tenantId}`, {
      bearer: opsKey,
      body: { name: 'bench flows live', mode: 'live' },
    });
    const provider = await setupProvider(baseUrl, opsKey, t.tenantId, PROVIDER_ADDRESS, `flows-${db}-${Date.now().toString(36)}`);
    const asProvider = { bearer: provider.token, headers: { 'x-mode': 'live' }, expect: [200, 201] };
    const live = <T>(method: 'GET' | 'POST', pathname: string, body?: unknown, expect?: number[]) => call<T>(agent, baseUrl, method, pathname, { bearer: liveKey, body, expect });

    const product = await live<{ id: string }>('POST', '/v1/products', { name: 'Bench flow product', sku: 'BENCH-FLOW-1', form: 'injection' });
    const protocol = await live<{ id: string }>('POST', '/v1/protocols', { name: 'Bench flow start', items: [{ productId: product.id, quantity: 1, sig: 'Inject 0.25 mg weekly' }] });
    const questionnaire: QuestionnaireDocument = { ...fortyItemQuestionnaire(), key: QUESTIONNAIRE_KEY, protocolId: protocol.id };
    const answers = eligibleAnswers(questionnaire);
    const q = await live<{ id: string }>('POST', '/v1/intake/questionnaires', questionnaire);
    await call(agent, baseUrl, 'POST', `/v1/intake/questionnaires/${q.id}/approve`, { ...asProvider, body: {} });

    const document = {
      steps: [
        { id: 'health', kind: 'medical', title: 'Your health', linkIds: questionnaire.items.map((i) => i.linkId) },
        { id: 'consent', kind: 'consent', title: 'Consent', text: 'I agree to a telehealth review of my answers.', version: CONSENT_VERSION },
        { id: 'contact', kind: 'contact', title: 'Where to reach you' },
      ],
      theme: { tokens: { primary: '#0f766e' } },
      settings: { questionnaireKey: QUESTIONNAIRE_KEY, protocolId: protocol.id },
    };
    const flow = await live<{ id: string }>('POST', '/v1/flows', { name: 'Bench flow', document });
    const published = await live<{ status: string }>('POST', `/v1/flows/${flow.id}/publish`, undefined, [200]);
    if (published.status !== 'pending_approval') throw new BenchError(`flows set-up: publish answered ${published.status}, expected pending_approval`);
    const approved = await call<{ status: string; version: { id: string } }>(agent, baseUrl, 'POST', `/v1/flows/${flow.id}/approve`, { ...asProvider, body: {} });
    if (approved.status !== 'published') throw new BenchError(`flows set-up: approve answered ${approved.status}`);
    const embed = await live<{ id: string }>('POST', '/v1/embed-keys', { name: 'bench flow', allowedOrigins: [ORIGIN], flowId: flow.id });
    return { tenantId: t.tenantId, liveKey, flowId: flow.id, versionId: approved.version.id, embed: embed.id, answers };
  } finally {
    await agent.close();
  }
}

const runTag = Date.now().toString(36);
const cpuByKindText = (byKind: NonNullable<Figures['cpuByKind']>) =>
  Object.entries(byKind)
    .map(([kind, c]) => `${kind} ${c.server?.toFixed(2) ?? '—'} / ${c.postgres?.toFixed(2) ?? '—'}`)
    .join(', ');
let patientNo = 0;

const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
/** One case of session creation under or without an experiment: latencies, rate, CPU per session. */
type AssignmentCase = Latency & { perSec: number; n: number; cpuMs: { server: number | null; postgres: number | null } };
const cpuPair = (c: AssignmentCase['cpuMs']) => `${c.server?.toFixed(2) ?? '—'} server / ${c.postgres?.toFixed(2) ?? '—'} PostgreSQL`;

const latency = (values: number[]): Latency => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: quantile(sorted, 50), p99: quantile(sorted, 99) };
};

/** A public runtime call as the hosted page makes it (JSON, the key's origin); throws unless `expect` came back. */
async function postJson(pool: Pool, kind: string, path: string, body: unknown, expect: number, extra: Record<string, string> = {}) {
  const res = await pool.request({ method: 'POST', path, headers: { 'content-type': 'application/json', origin: ORIGIN, ...extra }, body: JSON.stringify(body) });
  const text = await res.body.text();
  if (res.statusCode !== expect) throw new Error(`${kind}: ${res.statusCode} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

type Post = (kind: string, path: string, body: unknown, expect: number, extra?: Record<string, string>) => Promise<Record<string, unknown>>;

/**
 * One patient's whole run through `post`: a session, the three steps, the submit (fresh Idempotency-Key unless
 * given); every answer checked, the submit eligible with a certificate. Returns the submission.
 */
export async function runFlowOnce(post: Post, w: World, n: number, submitKey: string = randomUUID()): Promise<{ sessionId: string; submissionId: string }> {
  const prefix = `/v1/public/flows/${w.embed}/sessions`;
  const answers = w.answers[n % w.answers.length];
  const name = `Flow Patient ${n}`;
  const email = `flow-${runTag}-${n}@example.com`;
  const s = await post('session', prefix, {}, 201);
  const id = s.sessionId as string;
  const health = await post('health', `${prefix}/${id}/steps`, { stepId: 'health', answers }, 200);
  if (health.nextStepId !== 'consent') throw new Error(`health: next ${String(health.nextStepId)}`);
  await post('consent', `${prefix}/${id}/steps`, { stepId: 'consent', answers: { accepted: true, version: CONSENT_VERSION } }, 200);
  const contact = await post('contact', `${prefix}/${id}/steps`, { stepId: 'contact', answers: { name, email, state: 'CA', dateOfBirth: answers.dob } }, 200);
  if (contact.nextStepId !== null) throw new Error(`contact: next ${String(contact.nextStepId)}`);
  const out = await post('submit', `${prefix}/${id}/submit`, { patient: { name, email } }, 200, { 'idempotency-key': submitKey });
  if (out.verdict !== 'eligible' || typeof out.certificate !== 'string' || typeof out.submissionId !== 'string') throw new Error(`submit: ${JSON.stringify(out).slice(0, 300)}`);
  return { sessionId: id, submissionId: out.submissionId };
}

/**
 * Closed loop of whole runs: each of `connections` simulated patients creates a session, saves the three
 * steps and submits (fresh Idempotency-Key), then starts again; every answer checked (the submit: eligible
 * with a certificate). A run counts when its submit is answered before `seconds` are up.
 */
async function runPatients(baseUrl: string, w: World, seconds: number) {
  const pool = new Pool(baseUrl, { connections: settings.connections, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const byKind: Record<string, number[]> = { session: [], health: [], consent: [], contact: [], submit: [] };
  const runTimes: number[] = [];
  let requests = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  let runs = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const post = async (kind: string, path: string, body: unknown, expect: number, extra: Record<string, string> = {}) => {
    const t0 = performance.now();
    requests++;
    try {
      return await postJson(pool, kind, path, body, expect, extra);
    } finally {
      byKind[kind].push(performance.now() - t0);
    }
  };
  const patient = async () => {
    while (performance.now() < end) {
      const n = ++patientNo;
      const t0 = performance.now();
      try {
        await runFlowOnce(post, w, n);
        if (performance.now() <= end) {
          runs++;
          runTimes.push(performance.now() - t0);
        }
      } catch (err) {
        failures++;
        firstFailure ??= err instanceof Error ? err.message : String(err);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: settings.connections }, patient));
  } finally {
    await pool.close();
  }
  return { runs, requests, failures, firstFailure, seconds: (Math.min(performance.now(), end) - start) / 1000, byKind, runTimes };
}

/** Measured complete runs against `server` (the project, or the same-SQL reference on the same database). */
export async function measureRuns(server: { baseUrl: string; pid: number }, db: string, w: World, label = 'flows'): Promise<RunFigures> {
  if (settings.warmup > 0) await runPatients(server.baseUrl, w, settings.warmup);
  log(`${db.padEnd(8)} ${label}: complete runs (session + 3 steps + submit), ${settings.duration}s at ${settings.connections} patients`);
  const rss = sampleRss(server.pid);
  const cpu = cpuMeter(server.pid);
  const r = await runPatients(server.baseUrl, w, settings.duration);
  const peakRssMb = rss.stop();
  const used = cpu.stop();
  if (r.failures / Math.max(1, r.requests) > settings.maxFailureRatio) {
    throw new BenchError(`${label} runs on ${db}: ${r.failures} failed runs in ${r.requests} requests; first: ${r.firstFailure}`);
  }
  return {
    runsPerSec: r.runs / r.seconds,
    runs: r.runs,
    seconds: r.seconds,
    requests: r.requests,
    failures: r.failures,
    firstFailure: r.firstFailure,
    byKind: Object.fromEntries(Object.entries(r.byKind).map(([k, v]) => [k, latency(v)])),
    run: latency(r.runTimes),
    cpuMsPerRun: { server: msPer(used.serverS, r.runs), postgres: db === 'postgres' ? msPer(used.postgresS, r.runs) : null },
    peakRssMb,
  };
}

const KIND_BATCH = 600;

/**
 * Where a run's CPU goes: each request kind of a run alone, `KIND_BATCH` of it at `connections` (every
 * session first, then every medical step, and so on), with the server's and PostgreSQL's CPU per request.
 */
async function measureCpuByKind(ctx: Parameters<Scenario['run']>[0], w: World): Promise<Record<string, { server: number | null; postgres: number | null }>> {
  const pool = new Pool(ctx.server.baseUrl, { connections: settings.connections, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const prefix = `/v1/public/flows/${w.embed}/sessions`;
  const out: Record<string, { server: number | null; postgres: number | null }> = {};
  const ids: string[] = [];
  const n = Array.from({ length: KIND_BATCH }, (_, i) => i);
  const phase = async (kind: string, one: (i: number) => Promise<unknown>) => {
    const cpu = cpuMeter(ctx.server.pid);
    await parallel(n, settings.connections, one);
    const used = cpu.stop();
    out[kind] = { server: msPer(used.serverS, KIND_BATCH), postgres: ctx.db === 'postgres' ? msPer(used.postgresS, KIND_BATCH) : null };
  };
  const contact = (i: number) => ({ name: `Kind Patient ${i}`, email: `kind-${runTag}-${i}@example.com` });
  try {
    await phase('session', async (i) => (ids[i] = (await postJson(pool, 'session', prefix, {}, 201)).sessionId as string));
    await phase('medical step', (i) => postJson(pool, 'health', `${prefix}/${ids[i]}/steps`, { stepId: 'health', answers: w.answers[i % w.answers.length] }, 200));
    await phase('consent step', (i) => postJson(pool, 'consent', `${prefix}/${ids[i]}/steps`, { stepId: 'consent', answers: { accepted: true, version: CONSENT_VERSION } }, 200));
    await phase('contact step', (i) =>
      postJson(pool, 'contact', `${prefix}/${ids[i]}/steps`, { stepId: 'contact', answers: { ...contact(i), state: 'CA', dateOfBirth: w.answers[i % w.answers.length].dob } }, 200),
    );
    await phase('submit', (i) => postJson(pool, 'submit', `${prefix}/${ids[i]}/submit`, { patient: contact(i) }, 200, { 'idempotency-key': randomUUID() }));
    await phase('beacon', (i) => postJson(pool, 'beacon', `${prefix}/${ids[i]}/events`, { type: 'step_viewed', stepId: 'health' }, 202));
  } finally {
    await pool.close();
  }
  return out;
}

/**
 * Issue 24: session creation alone, closed loop at `connections`, for `seconds`; every answer checked (201,
 * and with an experiment running, an arm). Returns the latencies and how many sessions got the variant.
 */
async function createSessions(baseUrl: string, w: World, seconds: number, expectArm: boolean) {
  const pool = new Pool(baseUrl, { connections: settings.connections, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const times: number[] = [];
  let variants = 0;
  let failure: string | undefined;
  const start = performance.now();
  const end = start + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end && !failure) {
      const t0 = performance.now();
      const res = await pool.request({ method: 'POST', path: `/v1/public/flows/${w.embed}/sessions`, headers: { 'content-type': 'application/json', origin: ORIGIN }, body: '{}' });
      const text = await res.body.text();
      const t = performance.now() - t0;
      const body = res.statusCode === 201 ? (JSON.parse(text) as { arm: string | null }) : undefined;
      if (!body || (expectArm ? body.arm !== 'control' && body.arm !== 'variant' : body.arm !== null)) {
        failure = `${res.statusCode} ${text.slice(0, 300)}`;
        break;
      }
      if (body.arm === 'variant') variants++;
      if (performance.now() <= end) times.push(t);
    }
  };
  try {
    await Promise.all(Array.from({ length: settings.connections }, loop));
  } finally {
    await pool.close();
  }
  if (failure) throw new BenchError(`flows sessions (${expectArm ? 'with' : 'without'} an experiment): ${failure}`);
  return { times, variants };
}

/**
 * Session creation without and with a running experiment (a 50/50 theme-only variant: the bench flow has only
 * clinical steps, which experiments may not patch), in rounds ordered A B B A A B B A (without, with, with,
 * without, …), each after a short unmeasured warm-up, the latencies of each case pooled: a 1 ms difference at p50
 * is far below what a shared machine drifts by between two back-to-back runs, and the tables grow with every
 * session made, so each case runs as often early as late. The server's and PostgreSQL's CPU per session of each
 * case tell where a difference comes from. Each "with" round starts its own experiment and stops it afterwards,
 * so the beacons and counts that follow see the flow as before.
 */
async function measureAssignment(baseUrl: string, serverPid: number, w: World): Promise<NonNullable<Figures['assignment']>> {
  const order = [false, true, true, false, false, true, true, false];
  const seconds = Math.max(2, Math.round(settings.duration / 4));
  const warm = 1;
  const pooled = { without: { times: [] as number[], serverS: 0, postgresS: 0 }, with: { times: [] as number[], serverS: 0, postgresS: 0 }, variants: 0 };
  const agent = new Agent();
  const round = async (withExperiment: boolean) => {
    await createSessions(baseUrl, w, warm, withExperiment);
    const cpu = cpuMeter(serverPid);
    const measured = await createSessions(baseUrl, w, seconds, withExperiment);
    const used = cpu.stop();
    const into = withExperiment ? pooled.with : pooled.without;
    into.times.push(...measured.times);
    into.serverS += used.serverS ?? NaN;
    into.postgresS += used.postgresS ?? NaN;
    pooled.variants += measured.variants;
  };
  try {
    for (const [i, withExperiment] of order.entries()) {
      if (!withExperiment) {
        await round(false);
        continue;
      }
      const experiment = await call<{ id: string }>(agent, baseUrl, 'POST', `/v1/flows/${w.flowId}/experiments`, {
        bearer: w.liveKey,
        body: { name: `bench theme ${i + 1}`, splitPct: 50, overrides: [{ stepId: '$flow', blocks: { theme: { primary: '#1d4ed8' } } }] },
      });
      try {
        await round(true);
      } finally {
        await call(agent, baseUrl, 'POST', `/v1/flows/experiments/${experiment.id}/stop`, { bearer: w.liveKey, body: {}, expect: [200] });
      }
    }
  } finally {
    await agent.close();
  }
  const total = (order.length / 2) * seconds;
  const summary = (c: typeof pooled.without) => ({
    ...latency(c.times),
    perSec: c.times.length / total,
    n: c.times.length,
    cpuMs: { server: msPer(c.serverS, c.times.length), postgres: msPer(c.postgresS, c.times.length) },
  });
  return { without: summary(pooled.without), with: { ...summary(pooled.with), variants: pooled.variants } };
}

/** `count` open sessions (unmeasured, bodies checked), for beacons that are each the first of their kind. */
async function openSessions(baseUrl: string, w: World, count: number): Promise<string[]> {
  const ids: string[] = [];
  const bad: string[] = [];
  const result = await autocannon({
    url: baseUrl,
    connections: 25,
    amount: count,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: `/v1/public/flows/${w.embed}/sessions`,
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: '{}',
        onResponse: (status, body) => {
          if (status === 201) ids.push((JSON.parse(body) as { sessionId: string }).sessionId);
          else bad.push(`${status} ${body.slice(0, 300)}`);
        },
      },
    ],
  });
  if (bad.length || result.errors) throw new BenchError(`flows: ${bad.length} sessions not created, ${result.errors} socket errors; first: ${bad[0] ?? '—'}`);
  return ids;
}

/** Beacon i: session i mod N, then its view and its three step views in turn: no beacon repeats, each is counted. */
function beaconSource(sessions: string[], embed: string) {
  let i = 0;
  const kinds = [{ type: 'view' }, ...STEPS.map((stepId) => ({ type: 'step_viewed', stepId }))];
  return (req: autocannon.RequestData): autocannon.RequestData => {
    const n = i++;
    const round = Math.floor(n / sessions.length);
    if (round >= kinds.length) throw new BenchError('flows beacons: out of fresh (session, beacon) pairs; raise BEACON_SESSIONS');
    return { ...req, path: `/v1/public/flows/${embed}/sessions/${sessions[n % sessions.length]}/events`, body: JSON.stringify(kinds[round]) };
  };
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Writes 1,000,000 sessions' worth of counters into `flow_stats_daily` with SQL: the 90 days before today
 * (today stays the run's own, so the written-rows check below compares it with flow_sessions exactly), a
 * weekly swing of ±30% around 11,111 sessions a day, the flow-level row and one row per step each day, each
 * split over the 16 shards, as the runtime writes them for the flow's active version.
 */
async function prefillStats(pid: number, w: World): Promise<string | undefined> {
  const sql = await openSql(pid);
  if (!sql) return undefined;
  try {
    const today = Date.parse(dayOf(Date.now()));
    const weights = Array.from({ length: PREFILL_DAYS }, (_, d) => 1 + 0.3 * Math.sin((2 * Math.PI * d) / 7));
    const sum = weights.reduce((a, b) => a + b, 0);
    const perDay = weights.map((x) => Math.floor((x / sum) * PREFILL_SESSIONS));
    perDay[0] += PREFILL_SESSIONS - perDay.reduce((a, b) => a + b, 0);
    const days = perDay.map((_, d) => dayOf(today - (d + 1) * DAY_MS));
    const cols = { day: [] as string[], step: [] as string[], shard: [] as number[], views: [] as number[], sessions: [] as number[], qualified: [] as number[], disqualified: [] as number[], stepViews: [] as number[], completes: [] as number[] };
    // Split over the shards as the runtime's random pick leaves them (the remainder on shard 0).
    const push = (day: string, step: string, v: number[]) => {
      for (let shard = 0; shard < STATS_SHARDS; shard++) {
        cols.day.push(day);
        cols.step.push(step);
        cols.shard.push(shard);
        [cols.views, cols.sessions, cols.qualified, cols.disqualified, cols.stepViews, cols.completes].forEach((c, i) =>
          c.push(Math.floor(v[i] / STATS_SHARDS) + (shard === 0 ? v[i] % STATS_SHARDS : 0)),
        );
      }
    };
    perDay.forEach((n, d) => {
      push(days[d], '', [Math.round(n * 1.2), n, Math.round(n * 0.38), Math.round(n * 0.08), 0, 0]);
      push(days[d], 'health', [0, 0, 0, 0, Math.round(n * 0.9), Math.round(n * 0.62)]);
      push(days[d], 'consent', [0, 0, 0, 0, Math.round(n * 0.6), Math.round(n * 0.55)]);
      push(days[d], 'contact', [0, 0, 0, 0, Math.round(n * 0.54), Math.round(n * 0.48)]);
    });
    await sql.query(
      `insert into flow_stats_daily (tenant_id, livemode, flow_id, flow_version_id, day, step_id, experiment_id, arm, shard, views, sessions, qualified, disqualified, step_views, completes)
       select $1, true, $2, $3, u.day, u.step, '', '', u.shard, u.views, u.sessions, u.qualified, u.disqualified, u.step_views, u.completes
       from unnest($4::date[], $5::text[], $6::smallint[], $7::int[], $8::int[], $9::int[], $10::int[], $11::int[], $12::int[]) as u(day, step, shard, views, sessions, qualified, disqualified, step_views, completes)`,
      [w.tenantId, w.flowId, w.versionId, cols.day, cols.step, cols.shard, cols.views, cols.sessions, cols.qualified, cols.disqualified, cols.stepViews, cols.completes],
    );
    const { rows } = await sql.query<{ n: string; s: string }>(`select count(*) as n, sum(sessions) as s from flow_stats_daily where flow_id = $1 and day < $2`, [w.flowId, dayOf(today)]);
    if (Number(rows[0].s) !== PREFILL_SESSIONS) throw new BenchError(`flows prefill: ${rows[0].s} sessions written, expected ${PREFILL_SESSIONS}`);
    return `${fmt.int(Number(rows[0].n))} rows of flow_stats_daily (${PREFILL_DAYS} days × the flow-level row and 3 step rows × ${STATS_SHARDS} shards) summing to ${fmt.int(PREFILL_SESSIONS)} sessions, ${days[days.length - 1]} to ${days[0]}`;
  } finally {
    await sql.end();
  }
}

/**
 * PostgreSQL only, once the last requests settled: the run's sessions and submissions by status, and
 * today's aggregate against them (`pass`: the flow-level `sessions` counter equals today's sessions, the
 * `qualified` counter the eligible completed ones, each submission carries a certificate).
 */
async function counts(pid: number, w: World): Promise<{ text: string; pass: boolean } | undefined> {
  const sql = await openSql(pid);
  if (!sql) return undefined;
  try {
    await new Promise((r) => setTimeout(r, 2000));
    await sql.query('begin isolation level repeatable read');
    const today = dayOf(Date.now());
    const sessions = await sql.query<{ status: string; verdict: string | null; n: string }>(
      `select status, verdict, count(*) as n from flow_sessions where flow_id = $1 and created_at >= $2::date group by 1, 2 order by 1, 2`,
      [w.flowId, today],
    );
    const subs = await sql.query<{ n: string; certs: string }>(`select count(*) as n, count(certificate) as certs from intake_submissions where tenant_id = $1 and source = 'flow'`, [w.tenantId]);
    const agg = await sql.query<{ sessions: string; qualified: string; views: string }>(
      `select coalesce(sum(sessions), 0) as sessions, coalesce(sum(qualified), 0) as qualified, coalesce(sum(views), 0) as views from flow_stats_daily where flow_id = $1 and day = $2 and step_id = ''`,
      [w.flowId, today],
    );
    await sql.query('commit');
    const all = sessions.rows.reduce((s, r) => s + Number(r.n), 0);
    const eligible = Number(sessions.rows.find((r) => r.verdict === 'eligible')?.n ?? 0);
    const a = agg.rows[0];
    const text = [
      `flow sessions today: ${sessions.rows.map((r) => `${r.status}${r.verdict ? ` ${r.verdict}` : ''} ${fmt.int(Number(r.n))}`).join(', ')}`,
      `flow submissions: ${fmt.int(Number(subs.rows[0].n))} (${fmt.int(Number(subs.rows[0].certs))} certificates)`,
      `today's aggregate: sessions ${fmt.int(Number(a.sessions))}, qualified ${fmt.int(Number(a.qualified))}, views ${fmt.int(Number(a.views))}`,
    ].join('; ');
    return { text, pass: Number(a.sessions) === all && Number(a.qualified) === eligible && Number(subs.rows[0].n) === eligible && subs.rows[0].n === subs.rows[0].certs };
  } finally {
    await sql.end();
  }
}

/**
 * Lock waits seen by sampling pg_stat_activity every 50 ms during `fn`: how many backends of the scratch
 * database waited on a lock (and on which kind), summed over samples — a hot aggregate row shows as
 * `Lock/transactionid` waits.
 */
async function sampleLockWaits<T>(pid: number, fn: () => Promise<T>): Promise<{ value: T; text?: string }> {
  const sql = await openSql(pid);
  if (!sql) return { value: await fn() };
  const waits = new Map<string, number>();
  // The statements that waited, by their first words: which row is hot.
  const waiting = new Map<string, number>();
  let samples = 0;
  let active = 0;
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      const { rows } = await sql.query<{ ev: string | null; q: string | null; n: string }>(
        `select case when wait_event_type = 'Lock' then 'Lock/' || wait_event else null end as ev,
           case when wait_event_type = 'Lock' then regexp_replace(left(query, 60), '\\s+', ' ', 'g') else null end as q, count(*) as n
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state = 'active' group by 1, 2`,
      );
      samples++;
      for (const r of rows) {
        active += Number(r.n);
        if (r.ev) waits.set(r.ev, (waits.get(r.ev) ?? 0) + Number(r.n));
        if (r.q) waiting.set(r.q, (waiting.get(r.q) ?? 0) + Number(r.n));
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    const value = await fn();
    return {
      value,
      text: `${samples} samples of pg_stat_activity: on average ${(active / Math.max(1, samples)).toFixed(1)} active backends, of which waiting on a lock ${[...waits].map(([k, v]) => `${k} ${(v / samples).toFixed(2)}`).join(', ') || 'none'}${
        waiting.size ? `; waiting: ${[...waiting].sort((x, y) => y[1] - x[1]).slice(0, 3).map(([q, v]) => `"${q}…" ${(v / samples).toFixed(2)}`).join(', ')}` : ''
      }`,
    };
  } finally {
    stop = true;
    await loop;
    await sql.end();
  }
}

/**
 * Flows public runtime (issue 23): whole patient runs over the REST endpoints the hosted page uses, beacons
 * at 500/s offered, and the stats read over 1,000,000 sessions of aggregate.
 */
export const flowsScenario: Scenario = {
  id: 'flows',

  async run(ctx) {
    const { baseUrl, opsKey } = ctx.server;
    const started = Date.now();
    const w = await setupWorld(baseUrl, opsKey, ctx.db);
    const f: Figures = { db: ctx.db, setupMs: Date.now() - started, eligibleSets: w.answers.length };
    figures.push(f);
    log(`${ctx.db.padEnd(8)} flows set-up: live questionnaire and flow approved by an MFA provider, embed key, in ${(f.setupMs / 1000).toFixed(1)} s`);

    // (a) Complete runs. A few unmeasured ones first so that the tables have rows for ANALYZE.
    await runPatients(baseUrl, w, 2);
    await analyze(ctx.server.pid);
    const sampled = await sampleLockWaits(ctx.server.pid, () => measureRuns(ctx.server, ctx.db, w));
    f.runs = sampled.value;
    f.locks = sampled.text;
    log(`${ctx.db.padEnd(8)} flows runs: ${fmt.int(f.runs.runsPerSec)}/s${f.locks ? `; ${f.locks}` : ''}`);
    f.sameSql = await compareWithSameSql(ctx.server, (server, label) => measureRuns(server, ctx.db, w, label));
    f.cpuByKind = await measureCpuByKind(ctx, w);
    log(`${ctx.db.padEnd(8)} flows CPU ms by request (server / PostgreSQL): ${cpuByKindText(f.cpuByKind)}`);

    // Issue 24: what a running experiment adds to session creation (PostgreSQL only: the target's database).
    if (ctx.db === 'postgres') {
      f.assignment = await measureAssignment(baseUrl, ctx.server.pid, w);
      const a = f.assignment;
      log(`${ctx.db.padEnd(8)} flows sessions: p50 ${fmt.ms(a.without.p50)} ms without an experiment, ${fmt.ms(a.with.p50)} ms with one (${(a.with.p50 - a.without.p50).toFixed(2)} ms)`);
    }

    // (b) Beacons, open loop, each the first of its (session, type, step): every one lands a mark and bumps a row.
    const sessions = await openSessions(baseUrl, w, BEACON_SESSIONS);
    const beacon = beaconSource(sessions, w.embed);
    await ctx.measure({
      name: FLOWS_BEACONS,
      method: 'POST',
      path: `/v1/public/flows/${w.embed}/sessions/${sessions[0]}/events`,
      headers: { origin: ORIGIN },
      body: '{"type":"view"}',
      perRequest: beacon,
      offeredRate: BEACON_RATE,
    });

    // (c) Stats over 1,000,000 sessions of aggregate, written with SQL (PostgreSQL; PGlite has no outside connection).
    f.prefill = await prefillStats(ctx.server.pid, w);
    await analyze(ctx.server.pid);
    const today = dayOf(Date.now());
    const from = dayOf(Date.now() - PREFILL_DAYS * DAY_MS);
    const statsPath = `/v1/flows/${w.flowId}/stats?from=${from}&to=${today}`;
    const stats = await call<{ sessions: number; byStep: unknown[] }>(new Agent(), baseUrl, 'GET', statsPath, { bearer: w.liveKey });
    if (f.prefill && (stats.sessions < PREFILL_SESSIONS || stats.byStep.length !== STEPS.length)) throw new BenchError(`flows stats: ${JSON.stringify(stats).slice(0, 300)}`);
    const statsSpec = { method: 'GET' as const, path: statsPath, headers: { authorization: `Bearer ${w.liveKey}` } };
    await ctx.measure({ name: FLOWS_STATS_PACED, ...statsSpec, offeredRate: STATS_RATE });
    await ctx.measure({ name: FLOWS_STATS, ...statsSpec });

    f.counts = await counts(ctx.server.pid, w);
    const r = f.runs;
    ctx.section(
      `Flows (${ctx.db})`,
      markdownTable(
        ['runs/s', 'runs', 'requests', 'failed runs', 'run p50 ms', 'run p99 ms', 'session p99', 'medical step p99', 'consent p99', 'contact p99', 'submit p99', 'CPU ms/run: server', 'PostgreSQL', 'peak RSS MB'],
        [
          [
            fmt.int(r.runsPerSec),
            fmt.int(r.runs),
            fmt.int(r.requests),
            String(r.failures),
            fmt.ms(r.run.p50),
            fmt.ms(r.run.p99),
            fmt.ms(r.byKind.session.p99),
            fmt.ms(r.byKind.health.p99),
            fmt.ms(r.byKind.consent.p99),
            fmt.ms(r.byKind.contact.p99),
            fmt.ms(r.byKind.submit.p99),
            r.cpuMsPerRun.server?.toFixed(1) ?? '—',
            r.cpuMsPerRun.postgres?.toFixed(1) ?? '—',
            fmt.mb(r.peakRssMb),
          ],
        ],
        Array(14).fill(true),
      ) +
        `\n\nSet-up through the API, live mode: the orders scenario's tenant plus a live key; a live product and protocol; the 40-item bench questionnaire published and approved by an MFA provider (verified NPI); a flow of three clinical steps (one medical page with all 40 items, consent, contact) created with POST /v1/flows, published (pending approval) and approved by the provider; an embed key with that flowId and allowed origin ${ORIGIN}, sent as Origin. ` +
        `A run is one simulated patient's POST …/sessions, three POST …/steps (medical answers: one of ${f.eligibleSets} eligible sets; consent; contact with a unique e-mail) and POST …/submit with a fresh Idempotency-Key, every answer checked (submit: eligible, a certificate, a submission id); ${settings.connections} patients in a closed loop, each starting a new run once the last one is answered; runs/s counts runs whose submit was answered in the measured ${settings.duration} s (${settings.warmup} s of runs before, unmeasured). ` +
        `Per-request p50: ${Object.entries(r.byKind).map(([k, v]) => `${k} ${fmt.ms(v.p50)} ms`).join(', ')}.` +
        (f.locks ? `\n\nDuring the measured runs, ${f.locks}.` : '') +
        (f.cpuByKind
          ? `\n\nCPU ms per request by kind (server / PostgreSQL), each kind alone after the runs: ${KIND_BATCH} of it at ${settings.connections} connections (every session first, then every medical step, and so on; the beacon a step_viewed): ${cpuByKindText(f.cpuByKind)}.`
          : '') +
        (f.assignment
          ? `\n\nSession creation alone (POST …/sessions, closed loop at ${settings.connections} connections, 4 rounds of each case ordered A B B A A B B A, each after an unmeasured warm-up, latencies pooled per case): without an experiment ${fmt.int(f.assignment.without.perSec)}/s, p50 ${fmt.ms(f.assignment.without.p50)} ms, p99 ${fmt.ms(f.assignment.without.p99)} ms, CPU ms per session ${cpuPair(f.assignment.without.cpuMs)} (${fmt.int(f.assignment.without.n)} sessions); ` +
            `with a running experiment (POST /v1/flows/{id}/experiments, 50/50, a theme-only variant) ${fmt.int(f.assignment.with.perSec)}/s, p50 ${fmt.ms(f.assignment.with.p50)} ms, p99 ${fmt.ms(f.assignment.with.p99)} ms, CPU ms per session ${cpuPair(f.assignment.with.cpuMs)} (${fmt.int(f.assignment.with.n)} sessions, ${fmt.int(f.assignment.with.variants)} of them variant); p50 difference ${(f.assignment.with.p50 - f.assignment.without.p50).toFixed(2)} ms. Each round's experiment is stopped after it.`
          : '') +
        `\n\nBeacons: ${fmt.int(BEACON_SESSIONS)} open sessions made first (unmeasured); beacon i goes to session i mod ${fmt.int(BEACON_SESSIONS)}, the rounds being view, then step_viewed of each step, so none repeats and every one lands its mark and bumps a row of the aggregate (the costliest beacon; a retry counts nothing and costs less). ` +
        `Stats: ${f.prefill ? `prefilled with SQL straight into the aggregate the read sums (server/domain/flows/stats.ts reads only flow_stats_daily, never flow_sessions, so no session rows were written for it): ${f.prefill}; the read covers those 90 days and today (the run's own sessions), then ANALYZE; offered at ${STATS_RATE}/s (open loop, the target's figure) and closed loop at ${settings.connections} connections.` : 'no prefill (no SQL connection to this database).'}` +
        (f.counts ? `\n\nWritten (SQL on the scratch database after the run): ${f.counts.text}.` : ''),
    );
    if (f.sameSql) ctx.section(`Flows against the same SQL (${ctx.db})`, sameSqlSection(f.sameSql, w));
  },

  targets({ db, results }) {
    if (db !== 'postgres') return [];
    const f = figures.find((x) => x.db === db);
    const checks: TargetCheck[] = [];
    if (f?.runs) {
      checks.push({
        target: `flows complete runs (session + 3 steps + submit) ≥ ${RUNS_PER_SEC_TARGET}/s at ${settings.connections} connections`,
        db,
        actual: `${fmt.int(f.runs.runsPerSec)}/s (run p99 ${fmt.ms(f.runs.run.p99)} ms; CPU ms/run server ${f.runs.cpuMsPerRun.server?.toFixed(1) ?? 'n/a'}, PostgreSQL ${f.runs.cpuMsPerRun.postgres?.toFixed(1) ?? 'n/a'})`,
        pass: f.runs.runsPerSec >= RUNS_PER_SEC_TARGET,
      });
    }
    if (f?.sameSql) checks.push(...sameSqlTargets(f.sameSql, db));
    const beacons = results.get(FLOWS_BEACONS);
    if (beacons) {
      checks.push({
        target: `flows beacon p99 ≤ ${BEACON_P99_TARGET_MS} ms with ${BEACON_RATE}/s offered over ${settings.connections} connections (open loop)`,
        db,
        actual: `${fmt.ms(beacons.p99)} ms (p50 ${fmt.ms(beacons.p50)} ms, ${fmt.int(beacons.reqPerSec)}/s answered)`,
        pass: beacons.p99 <= BEACON_P99_TARGET_MS && beacons.reqPerSec >= BEACON_RATE * 0.95,
      });
    }
    const stats = results.get(FLOWS_STATS_PACED);
    if (stats) {
      checks.push({
        target: `flows stats p99 ≤ ${STATS_P99_TARGET_MS} ms over ${fmt.int(PREFILL_SESSIONS)} sessions (${STATS_RATE}/s offered, open loop)`,
        db,
        actual: `${fmt.ms(stats.p99)} ms (p50 ${fmt.ms(stats.p50)} ms)${f?.prefill ? '' : ' — NOT prefilled'}`,
        pass: stats.p99 <= STATS_P99_TARGET_MS && !!f?.prefill,
      });
    }
    if (f?.assignment) {
      const a = f.assignment;
      const diff = a.with.p50 - a.without.p50;
      checks.push({
        target: `flows: a running experiment adds ≤ ${ASSIGN_P50_TARGET_MS} ms to session creation at p50 (${settings.connections} connections)`,
        db,
        actual: `${diff.toFixed(2)} ms (p50 ${fmt.ms(a.without.p50)} → ${fmt.ms(a.with.p50)} ms; p99 ${fmt.ms(a.without.p99)} → ${fmt.ms(a.with.p99)} ms)`,
        pass: diff <= ASSIGN_P50_TARGET_MS,
      });
    }
    if (f?.counts) checks.push({ target: 'flows: today\'s aggregate equals the sessions and eligible runs written; a certificate per submission', db, actual: f.counts.pass ? 'yes' : 'NO (see the Flows section)', pass: f.counts.pass });
    return checks;
  },
};
