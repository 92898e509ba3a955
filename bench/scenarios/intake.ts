import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { Agent, request, type Dispatcher } from 'undici';
import type { QuestionnaireDocument } from '@/server/domain/intake/questionnaire-schema';
import { eligibleAnswerSets, fortyItemQuestionnaire } from '../intake-engine';
import { BenchError, setupCall, type SetupCallOptions, fmt, log, markdownTable, parallel, settings } from '../lib';
import { analyze, openSql, setupProvider, setupTenant, type Provider, type Tenant } from './orders';
import type { Scenario, TargetCheck } from './types';

export const INTAKE_PUBLIC = 'intake: POST /v1/public/intake/{embedKey}/submissions (live, eligible → certificate, new patient each)';
/** Offered at the target rate on an even schedule (open loop): the latency of a server doing 300 submissions a second. */
export const INTAKE_PUBLIC_PACED = `intake: POST /v1/public/intake/{embedKey}/submissions (live, 300/s offered)`;
export const INTAKE_IN_APP = 'intake: POST /v1/intake/submissions (in-app, eligible → certificate)';
export const INTAKE_REVIEW = 'intake: POST /v1/intake/submissions/{id}/review approve → order submitted';

const SUBMIT_PER_SEC_TARGET = 300;
const SUBMIT_P99_TARGET_MS = 100;
/** Providers who review (each signs in and enrols MFA during set-up: a few seconds each on a loaded machine). */
const PROVIDERS = 10;
/** Loopback addresses of their own (orders.ts's provider addresses 0–49 are the orders scenario's). */
const PROVIDER_ADDRESS_OFFSET = 100;
const SETUP_PARALLEL = 4;
/** Reviews approved flat out before the measured run (also its warm-up), to size the queue. */
const PROBE_REVIEWS = 200;
const QUEUE_MARGIN = 2.5;
const MAX_QUEUE = 20_000;
/**
 * Public submissions sent before the measured run (unmeasured, bodies checked): the clinic then has this many
 * live patients for the e-mail match to look through, and the statistics the planner plans that match with.
 */
const PREFILL_PATIENTS = 1000;
const ORIGIN = 'https://clinic.example';
/** BENCH_INTAKE_CASES=public,in-app,review (default all): a subset, e.g. to profile one path alone. */
const CASES = new Set((process.env.BENCH_INTAKE_CASES || 'public,in-app,review').split(',').map((c) => c.trim()));
const KEY = 'bench-intake';

interface Figures {
  db: string;
  setupMs: number;
  eligibleSets: number;
  /** Null when the server has no public submission endpoint yet (the in-app case stands in). */
  publicAvailable: boolean;
  probeReviewsPerSec?: number;
  queue?: number;
  queueLeft?: number;
  counts?: { text: string; pass: boolean };
  /** Set when the measured review run lost more than 1% of its requests to the client timeout (and had no other failure). */
  reviewTimeouts?: string;
}
const figures: Figures[] = [];

/** One JSON request for set-up; any status outside `expect` fails the bench. */
const call = <T>(dispatcher: Dispatcher, baseUrl: string, method: 'GET' | 'POST' | 'PATCH', pathname: string, opts: SetupCallOptions = {}) =>
  setupCall<T>('intake set-up: ', dispatcher, baseUrl, method, pathname, opts);

/** Publishes `doc` with `key` (sandbox or live secret key) and has a provider approve it in the same mode. */
async function publishAndApprove(agent: Agent, baseUrl: string, key: string, provider: Provider, doc: QuestionnaireDocument, live: boolean) {
  const published = await call<{ id: string; status: string }>(agent, baseUrl, 'POST', '/v1/intake/questionnaires', { bearer: key, body: doc });
  await call(agent, baseUrl, 'POST', `/v1/intake/questionnaires/${published.body.id}/approve`, {
    bearer: provider.token,
    body: {},
    headers: live ? { 'x-mode': 'live' } : {},
    expect: [200, 201],
  });
}

/** The answer sets of the 40-item bench questionnaire that the engine finds eligible today (a certificate each). */
const eligibleAnswers = (doc: QuestionnaireDocument) => eligibleAnswerSets(doc, 'intake');

interface World {
  t: Tenant;
  liveKey: string;
  providers: Provider[];
  sandboxEmbed: string;
  liveEmbed: string;
  answers: Record<string, unknown>[];
}

async function setupWorld(baseUrl: string, opsKey: string, db: string): Promise<World> {
  const agent = new Agent();
  try {
    const t = await setupTenant(baseUrl, opsKey, `${db}, intake`);
    const { body: live } = await call<{ key: string }>(agent, baseUrl, 'POST', `/v1/developer/keys/ops/tenants/${t.tenantId}`, {
      bearer: opsKey,
      body: { name: 'bench intake live', mode: 'live' },
    });
    const tag = `intake-${db}-${Date.now().toString(36)}`;
    const providers = await parallel(Array.from({ length: PROVIDERS }, (_, i) => i), SETUP_PARALLEL, (i) =>
      setupProvider(baseUrl, opsKey, t.tenantId, PROVIDER_ADDRESS_OFFSET + i, tag),
    );
    // Sandbox: the questionnaire names a protocol (what a review approval orders); live: no protocol, public intake only.
    const { body: protocol } = await call<{ id: string }>(agent, baseUrl, 'POST', '/v1/protocols', {
      bearer: t.key,
      body: { name: 'Bench GLP-1 start', items: [{ productId: t.productIds[0], quantity: 1, sig: 'Inject 0.25 mg weekly' }] },
    });
    const base = { ...fortyItemQuestionnaire(), key: KEY };
    const answers = eligibleAnswers(base);
    await publishAndApprove(agent, baseUrl, t.key, providers[0], { ...base, protocolId: protocol.id }, false);
    await publishAndApprove(agent, baseUrl, live.key, providers[0], base, true);
    const { body: sandboxEmbed } = await call<{ id: string }>(agent, baseUrl, 'POST', '/v1/embed-keys', { bearer: t.key, body: { name: 'bench', allowedOrigins: [] } });
    const { body: liveEmbed } = await call<{ id: string }>(agent, baseUrl, 'POST', '/v1/embed-keys', { bearer: live.key, body: { name: 'bench', allowedOrigins: [ORIGIN] } });
    return { t, liveKey: live.key, providers, sandboxEmbed: sandboxEmbed.id, liveEmbed: liveEmbed.id, answers };
  } finally {
    await agent.close();
  }
}

/** A patient no earlier request used: unique e-mail, so each public submission creates its patient. */
const runTag = Date.now().toString(36);
let patientNo = 0;
function publicBody(w: World) {
  const n = ++patientNo;
  return JSON.stringify({
    questionnaireKey: KEY,
    patient: { name: `Bench Patient ${n}`, email: `bench-${runTag}-${n}@example.com`, state: 'CA' },
    answers: w.answers[n % w.answers.length],
  });
}
let inAppNo = 0;
const inAppBody = (w: World) => {
  const n = ++inAppNo;
  return JSON.stringify({ questionnaireKey: KEY, patientId: w.t.patientIds[n % w.t.patientIds.length], answers: w.answers[n % w.answers.length] });
};

/** One public submission, its body checked: false when the server has no such route yet (404 without an envelope code of ours). */
async function checkPublic(baseUrl: string, w: World): Promise<boolean> {
  const agent = new Agent();
  try {
    const res = await request(`${baseUrl}/v1/public/intake/${w.liveEmbed}/submissions`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', origin: ORIGIN, 'idempotency-key': randomUUID() },
      body: publicBody(w),
    });
    const text = await res.body.text();
    if (res.statusCode === 404 && !/embed|questionnaire/i.test(text)) return false;
    const body = res.statusCode < 300 ? (JSON.parse(text) as { verdict?: string; certificate?: string | null }) : {};
    if (res.statusCode !== 201 || body.verdict !== 'eligible' || typeof body.certificate !== 'string') {
      throw new BenchError(`intake public check: expected 201 eligible with a certificate, got ${res.statusCode}: ${text.slice(0, 500)}`);
    }
    return true;
  } finally {
    await agent.close();
  }
}

/** `count` public submissions (fixed amount, unmeasured), each a new live patient; every body checked. */
async function prefillPublic(baseUrl: string, w: World, count: number) {
  const bad: string[] = [];
  const result = await autocannon({
    url: baseUrl,
    connections: Math.min(25, count),
    amount: count,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: `/v1/public/intake/${w.liveEmbed}/submissions`,
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: publicBody(w),
        setupRequest: (req) => ({ ...req, body: publicBody(w), headers: { ...req.headers, 'idempotency-key': randomUUID() } }),
        onResponse: (status, body) => {
          const s = status === 201 ? (JSON.parse(body) as { verdict: string; certificate: string | null }) : undefined;
          if (s?.verdict !== 'eligible' || !s.certificate) bad.push(`${status} ${body.slice(0, 300)}`);
        },
      },
    ],
  });
  if (bad.length || result.errors) throw new BenchError(`intake prefill: ${bad.length} public submissions not 201 eligible with a certificate, ${result.errors} socket errors; first: ${bad[0] ?? '—'}`);
}

/** `count` eligible in-app submissions (fixed amount, unmeasured), every body checked; returns their ids. */
async function createSubmissions(baseUrl: string, w: World, count: number): Promise<string[]> {
  const ids: string[] = [];
  const bad: string[] = [];
  const result = await autocannon({
    url: baseUrl,
    connections: Math.min(25, count),
    amount: count,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: '/v1/intake/submissions',
        headers: { authorization: `Bearer ${w.t.key}`, 'content-type': 'application/json' },
        body: inAppBody(w),
        setupRequest: (req) => ({ ...req, body: inAppBody(w), headers: { ...req.headers, 'idempotency-key': randomUUID() } }),
        onResponse: (status, body) => {
          const s = status === 201 ? (JSON.parse(body) as { id: string; status: string; verdict: string; certificate: string | null }) : undefined;
          if (s?.status === 'pending_review' && s.verdict === 'eligible' && s.certificate) ids.push(s.id);
          else bad.push(`${status} ${body.slice(0, 300)}`);
        },
      },
    ],
  });
  if (bad.length || result.errors) throw new BenchError(`intake set-up: ${bad.length} submissions not 201 eligible with a certificate, ${result.errors} socket errors; first: ${bad[0] ?? '—'}`);
  return ids;
}

/** A review request for the next submission of `queue`, by the next provider in turn. */
function reviewer(queue: string[], providers: Provider[]) {
  let next = 0;
  let turn = 0;
  return {
    take(req: autocannon.RequestData): autocannon.RequestData {
      // Past the end the last id is sent again: its 409 counts as non-2xx and `left` says why.
      const id = queue[Math.min(next++, queue.length - 1)];
      return { ...req, path: `/v1/intake/submissions/${id}/review`, headers: { ...req.headers, authorization: `Bearer ${providers[turn++ % providers.length].token}` } };
    },
    left: () => queue.length - next,
  };
}

/** Approves every submission of `ids` once, flat out, checking each body (approved, with an order); approvals/s. */
async function reviewAll(baseUrl: string, ids: string[], providers: Provider[]): Promise<number> {
  const r = reviewer(ids, providers);
  const bad: string[] = [];
  let ok = 0;
  const started = performance.now();
  let last = started;
  const result = await autocannon({
    url: baseUrl,
    connections: Math.min(settings.connections, ids.length),
    amount: ids.length,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: `/v1/intake/submissions/${ids[0]}/review`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decision: 'approve' }),
        setupRequest: (req) => r.take(req),
        onResponse: (status, body) => {
          last = performance.now();
          const s = status === 200 ? (JSON.parse(body) as { status: string; orderId: string | null }) : undefined;
          if (s?.status === 'approved' && s.orderId) ok++;
          else bad.push(`${status} ${body.slice(0, 300)}`);
        },
      },
    ],
  });
  if (bad.length || result.errors) throw new BenchError(`intake review probe: ${bad.length} reviews not 200 approved with an order, ${result.errors} socket errors; first: ${bad[0] ?? '—'}`);
  return ok / Math.max(0.001, (last - started) / 1000);
}

/**
 * PostgreSQL only: what the run wrote (submissions by mode, source and status with their certificates, intake
 * orders, live patients), read in one snapshot once the last answered reviews' dispatches have settled; `pass`
 * = one order per approved submission, every one submitted.
 */
async function counts(pid: number, tenantId: string): Promise<{ text: string; pass: boolean } | undefined> {
  const sql = await openSql(pid);
  if (!sql) return undefined;
  try {
    // Requests still in flight when the measured run stopped finish on their own; wait for them (≤ 15 s).
    const settleBy = Date.now() + 15_000;
    let last = '';
    for (;;) {
      const { rows } = await sql.query<{ n: string; busy: string }>(
        `select count(*) as n, count(*) filter (where status <> 'submitted') as busy from orders where tenant_id = $1 and source = 'intake'`,
        [tenantId],
      );
      const now = JSON.stringify(rows[0]);
      if ((rows[0].busy === '0' && now === last) || Date.now() > settleBy) break;
      last = now;
      await new Promise((r) => setTimeout(r, 500));
    }
    await sql.query('begin isolation level repeatable read');
    const subs = await sql.query<{ livemode: boolean; source: string; status: string; n: string; certs: string }>(
      `select livemode, source, status, count(*) as n, count(certificate) as certs from intake_submissions where tenant_id = $1 group by 1, 2, 3 order by 1, 2, 3`,
      [tenantId],
    );
    const orders = await sql.query<{ status: string; n: string }>(`select status, count(*) as n from orders where tenant_id = $1 and source = 'intake' group by 1 order by 1`, [tenantId]);
    const patients = await sql.query<{ n: string }>(`select count(*) as n from patients where tenant_id = $1 and livemode`, [tenantId]);
    await sql.query('commit');
    const approved = subs.rows.filter((r) => r.status === 'approved').reduce((sum, r) => sum + Number(r.n), 0);
    const submitted = Number(orders.rows.find((r) => r.status === 'submitted')?.n ?? 0);
    const allOrders = orders.rows.reduce((sum, r) => sum + Number(r.n), 0);
    const text = [
      `submissions: ${subs.rows.map((r) => `${r.livemode ? 'live' : 'sandbox'} ${r.source} ${r.status} ${fmt.int(Number(r.n))} (${fmt.int(Number(r.certs))} certificates)`).join('; ')}`,
      `intake orders: ${orders.rows.map((r) => `${r.status} ${fmt.int(Number(r.n))}`).join(', ') || 'none'}`,
      `live patients: ${fmt.int(Number(patients.rows[0].n))}`,
    ].join('; ');
    return { text, pass: approved === allOrders && submitted === allOrders };
  } finally {
    await sql.end();
  }
}

/**
 * Intake: eligible submissions through answer check, engine, certificate (EdDSA) and event in one
 * transaction, over the public embed path (live: a new patient per request, matched by a unique e-mail) and
 * the in-app path (existing patients); then the provider review that approves a pending submission, creating
 * its order from the questionnaire's protocol and dispatching it to a simulated pharmacy inline.
 */
export const intakeScenario: Scenario = {
  id: 'intake',

  async run(ctx) {
    const { baseUrl, opsKey } = ctx.server;
    const started = Date.now();
    const w = await setupWorld(baseUrl, opsKey, ctx.db);
    const f: Figures = { db: ctx.db, setupMs: Date.now() - started, eligibleSets: w.answers.length, publicAvailable: false };
    figures.push(f);
    log(`${ctx.db.padEnd(8)} intake set-up: 40-item questionnaire approved in both modes, ${PROVIDERS} MFA providers, embed keys, in ${(f.setupMs / 1000).toFixed(1)} s`);

    // 1. Public submissions (the headline): no credential but the embed key, an allowed Origin, a fresh Idempotency-Key and patient.
    f.publicAvailable = await checkPublic(baseUrl, w);
    if (f.publicAvailable && CASES.has('public')) {
      await prefillPublic(baseUrl, w, PREFILL_PATIENTS);
      await analyze(ctx.server.pid);
      await ctx.measure({
        name: INTAKE_PUBLIC,
        method: 'POST',
        path: `/v1/public/intake/${w.liveEmbed}/submissions`,
        headers: { origin: ORIGIN },
        body: publicBody(w),
        perRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() }, body: publicBody(w) }),
      });
      await ctx.measure({
        name: INTAKE_PUBLIC_PACED,
        method: 'POST',
        path: `/v1/public/intake/${w.liveEmbed}/submissions`,
        headers: { origin: ORIGIN },
        body: publicBody(w),
        perRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() }, body: publicBody(w) }),
        offeredRate: SUBMIT_PER_SEC_TARGET,
      });
    } else if (!f.publicAvailable) {
      log(`${ctx.db.padEnd(8)} intake: the server has no public submission endpoint yet; the in-app case stands in`);
    }

    // 2. In-app submissions by a secret key for the 5 existing patients.
    if (CASES.has('in-app')) await ctx.measure({
      name: INTAKE_IN_APP,
      method: 'POST',
      path: '/v1/intake/submissions',
      headers: { authorization: `Bearer ${w.t.key}` },
      body: inAppBody(w),
      perRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() }, body: inAppBody(w) }),
    });

    // 3. Review approve → order → dispatch: each request a different pending submission, the providers in turn.
    if (!CASES.has('review')) {
      ctx.section(`Intake (${ctx.db})`, `Cases run: ${[...CASES].join(', ')} (BENCH_INTAKE_CASES); set-up ${(f.setupMs / 1000).toFixed(1)} s, ${f.eligibleSets} eligible answer sets.`);
      return;
    }
    const probeIds = await createSubmissions(baseUrl, w, PROBE_REVIEWS);
    f.probeReviewsPerSec = await reviewAll(baseUrl, probeIds, w.providers);
    f.queue = Math.min(MAX_QUEUE, Math.ceil(f.probeReviewsPerSec * (settings.warmup + settings.duration) * QUEUE_MARGIN) + 4 * settings.connections);
    log(`${ctx.db.padEnd(8)} intake review probe: ${fmt.int(f.probeReviewsPerSec)} approvals/s; creating ${fmt.int(f.queue)} submissions to review`);
    const queue = await createSubmissions(baseUrl, w, f.queue);
    await analyze(ctx.server.pid);
    const r = reviewer(queue, w.providers);
    try {
      await ctx.measure({
        name: `${INTAKE_REVIEW} (${PROVIDERS} providers)`,
        method: 'POST',
        path: `/v1/intake/submissions/${queue[0]}/review`,
        body: JSON.stringify({ decision: 'approve' }),
        perRequest: (req) => r.take(req),
      });
    } catch (err) {
      // As in the orders scenario: requests outliving the 10 s client timeout (and nothing else) are a result
      // (PGlite runs every statement on one connection); anything else still fails the run.
      const alive = ctx.server.child.process.exitCode === null && ctx.server.child.process.signalCode === null;
      if (!alive || !(err instanceof BenchError) || !/ 0 non-2xx and \d+ socket errors /.test(err.message)) throw err;
      f.reviewTimeouts = err.message;
      log(`${ctx.db.padEnd(8)} intake review: ${f.reviewTimeouts}`);
    }
    f.queueLeft = r.left();
    if (f.queueLeft < 0) throw new BenchError(`intake review on ${ctx.db}: the queue of ${f.queue} submissions ran out; raise QUEUE_MARGIN`);
    f.counts = await counts(ctx.server.pid, w.t.tenantId);

    ctx.section(
      `Intake (${ctx.db})`,
      markdownTable(
        ['db', 'set-up s', 'eligible answer sets', 'public endpoint', 'review probe approvals/s', 'review queue', 'left unused'],
        [[f.db, (f.setupMs / 1000).toFixed(1), String(f.eligibleSets), f.publicAvailable ? 'measured' : 'not in this build', fmt.int(f.probeReviewsPerSec), fmt.int(f.queue), fmt.int(f.queueLeft)]],
        [false, true, true, false, true, true, true],
      ) +
        `\n\nSet-up through the API: the orders scenario's tenant (enterprise, sandbox key, ${w.t.productIds.length} products, simulated pharmacies in CA accepting after 1 h, ${w.t.patientIds.length} CA patients) plus a live key; ` +
        `the 40-item, ${fortyItemQuestionnaire().rules.length}-rule bench questionnaire (bench/intake-engine.ts) published by the key and approved by an MFA provider with a verified NPI in each mode (sandbox: naming a one-line protocol; live: no protocol); an embed key per mode (live: allowed origin ${ORIGIN}, sent as Origin). ` +
        `Every request carries a fresh Idempotency-Key and one of ${f.eligibleSets} answer sets the engine finds eligible (each signs a certificate). Public: a unique e-mail each, so each creates its live patient (matched by e-mail first), after ${fmt.int(PREFILL_PATIENTS)} unmeasured ones (the clinic's existing patients; then ANALYZE). ` +
        `Review: ${PROVIDERS} providers (licensed in CA) approve pending in-app submissions in turn, each once; the approval creates the order from the protocol and dispatches it to a simulated pharmacy before answering.` +
        (f.reviewTimeouts ? `\n\nThe measured review run has no row in the table: ${f.reviewTimeouts}.` : '') +
        (f.counts ? `\n\nWritten (SQL on the scratch database, after the last requests settled): ${f.counts.text}.` : ''),
    );
  },

  targets({ db, results }) {
    const f = figures.find((x) => x.db === db);
    const timeouts = f?.reviewTimeouts
      ? [{ target: `intake review at ${settings.connections} connections: every request answered within the 10 s client timeout`, db, actual: f.reviewTimeouts.replace(/^.*?: /, ''), pass: false }]
      : [];
    if (db !== 'postgres') return timeouts;
    const m = results.get(INTAKE_PUBLIC) ?? results.get(INTAKE_IN_APP);
    if (!m) return timeouts;
    const what = results.has(INTAKE_PUBLIC) ? 'public' : f?.publicAvailable ? 'in-app' : 'in-app (no public endpoint in this build)';
    const checks: TargetCheck[] = [
      {
        target: `intake ${what} submissions ≥ ${SUBMIT_PER_SEC_TARGET}/s at ${settings.connections} connections`,
        db,
        actual: `${fmt.int(m.reqPerSec)}/s (server CPU ${m.cpuMs.server?.toFixed(2) ?? 'n/a'} ms/req, PostgreSQL ${m.cpuMs.postgres?.toFixed(2) ?? 'n/a'} ms/req)`,
        pass: m.reqPerSec >= SUBMIT_PER_SEC_TARGET,
      },
      {
        target: `intake ${what} submission p99 ≤ ${SUBMIT_P99_TARGET_MS} ms at ${settings.connections} connections (closed loop: each sends again once answered)`,
        db,
        actual: `${fmt.ms(m.p99)} ms (p50 ${fmt.ms(m.p50)} ms)`,
        pass: m.p99 <= SUBMIT_P99_TARGET_MS,
      },
    ];
    if (f?.counts) checks.push({ target: 'intake review: one order per approved submission, every one submitted at the pharmacy', db, actual: f.counts.pass ? 'yes' : 'NO (see the Intake section)', pass: f.counts.pass });
    const paced = results.get(INTAKE_PUBLIC_PACED);
    if (paced) {
      checks.push({
        target: `intake public submission p99 ≤ ${SUBMIT_P99_TARGET_MS} ms with ${SUBMIT_PER_SEC_TARGET}/s offered over ${settings.connections} connections (open loop)`,
        db,
        actual: `${fmt.ms(paced.p99)} ms (p50 ${fmt.ms(paced.p50)} ms, ${fmt.int(paced.reqPerSec)}/s answered)`,
        pass: paced.p99 <= SUBMIT_P99_TARGET_MS && paced.reqPerSec >= SUBMIT_PER_SEC_TARGET * 0.95,
      });
    }
    if (f && !f.publicAvailable) checks.push({ target: 'intake public submission endpoint present', db, actual: 'absent', pass: false });
    return [...checks, ...timeouts];
  },
};
