import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowVersions } from '@/db/schema';
import type { AppRouter } from '@/server/api/root';
import { clinicalPlaneHash } from '@/server/domain/flows/clinical-plane';
import { setClock } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';
import { flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument, type PinnedQuestionnaireRef } from './helpers/flow-world';
import { countRows, createTenantWithKeys, expectEnvelope, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';
import { trpcFailure } from './helpers/trpc';

/*
 * Beacons and stats (DESIGN decisions 24 and 26): a beacon is acknowledged on every retry and counted once
 * per session (and step) through its mark; the stats endpoint sums the per-day aggregate, with from, to and
 * versionId filters, exactly per the spec's shape.
 */

const KEY = 'weight';
let app: TestApp;
let a: Clinic;
let b: Clinic;
let q: PinnedQuestionnaireRef;
let world: Awaited<ReturnType<typeof publishedFlow>>;
let v2: string;

const DAY1 = '2026-03-01';
const DAY2 = '2026-03-02';
const at = (day: string) => setClock(() => new Date(`${day}T10:00:00Z`));
const stats = (query = '', key = a.sandboxKey) => app.request('GET', `/v1/flows/${world.flowId}/stats${query}`, { key });
const client = (key: string) => createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${key}` } })] });

async function beaconTwice(c: ReturnType<typeof flowClient>, id: string, body: Record<string, unknown>) {
  for (let i = 0; i < 2; i++) {
    const res = await c.beacon(id, body);
    expect(res.status, res.text).toBe(202);
    expect(res.body).toEqual({ ok: true });
  }
}

beforeAll(async () => {
  app = await startTestApp({ EMBED_RATE_LIMIT: '100000' });
  a = await createTenantWithKeys(app, 'Stats Clinic');
  b = await createTenantWithKeys(app, 'Other Clinic');
  q = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument(KEY));
  world = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument(KEY));
  const c = flowClient(app, world.embedKey);
  try {
    // Day 1 on version 1: s1 qualifies (every beacon sent twice), s2 is disqualified, s3 never sends a view.
    at(DAY1);
    const s1 = await c.started();
    await beaconTwice(c, s1, { type: 'view' });
    await beaconTwice(c, s1, { type: 'step_viewed', stepId: 'welcome' });
    await beaconTwice(c, s1, { type: 'step_completed', stepId: 'welcome' });
    await c.answerAll(s1, weightRunAnswers());
    expect((await c.submit(s1)).body.verdict).toBe('eligible');
    await beaconTwice(c, s1, { type: 'step_completed', stepId: 'result' });
    const s2 = await c.started();
    await beaconTwice(c, s2, { type: 'view' });
    await c.answerAll(s2, weightRunAnswers({ history: { pregnant: true, takesMeds: false } }));
    expect((await c.submit(s2)).body.verdict).toBe('disqualified');
    await c.started();

    // Day 2: s4 on version 1, then version 2 (a new landing step) goes live and s5 runs on it.
    at(DAY2);
    const s4 = await c.started();
    await beaconTwice(c, s4, { type: 'view' });
    await c.answerAll(s4, [['welcome', {}]]);
    const doc = weightFlowDocument(KEY);
    doc.steps[0] = { id: 'hello', kind: 'landing', blocks: { headline: 'Hello' } };
    v2 = newId('flowVersion');
    const now = new Date();
    await app.services.database.db.insert(flowVersions).values({
      id: v2,
      tenantId: a.tenantId,
      livemode: false,
      flowId: world.flowId,
      number: 2,
      status: 'published',
      document: doc,
      questionnaireId: q.id,
      questionnaireKey: KEY,
      questionnaireVersion: 1,
      clinicalPlaneHash: clinicalPlaneHash(doc, q),
      publishedBy: 'usr_test',
      publishedAt: now,
      createdAt: now,
    });
    await app.services.database.db.execute(sql`update flows set active_version_id = ${v2} where id = ${world.flowId}`);
    app.services.servingKeys.invalidate(); // a write behind the domain's back: it announces nothing
    const s5 = await c.started();
    await beaconTwice(c, s5, { type: 'view' });
    await c.answerAll(s5, [['hello', {}]]);
  } finally {
    setClock(null);
  }
});
afterAll(async () => {
  await app?.close();
});

// No session here was shown a step it did not complete (s1's beacons name steps it completed): reached is completes.
const steps = (ids: string[], completes: Record<string, number>) => ids.map((stepId) => ({ stepId, reached: completes[stepId] ?? 0, completes: completes[stepId] ?? 0 }));
const V1_STEPS = ['welcome', 'goals', 'body', 'history', 'consent', 'contact', 'result'];
const V2_STEPS = ['hello', 'goals', 'body', 'history', 'consent', 'contact', 'result'];
const RUN_STEPS = { goals: 2, body: 2, history: 2, consent: 2, contact: 2 };
// The outcome page is completed by the submit (DESIGN decision 34): s1 and s2 submitted; s1's beacon for it counts nothing.
const SUBMITTED = { result: 2 };

describe('GET /v1/flows/{id}/stats', () => {
  it('sums every day and version; byStep lists the active version’s steps in order', async () => {
    const res = await stats();
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ views: 4, sessions: 5, qualified: 1, disqualified: 1, qualifyRate: 0.25, byStep: steps(V2_STEPS, { hello: 1, ...RUN_STEPS, ...SUBMITTED }) });
  });

  it('versionId: only that version’s sessions, and its own steps', async () => {
    const res = await stats(`?versionId=${world.versionId}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ views: 3, sessions: 4, qualified: 1, disqualified: 1, qualifyRate: 1 / 3, byStep: steps(V1_STEPS, { welcome: 3, ...RUN_STEPS, ...SUBMITTED }) });
    expect((await stats(`?versionId=${v2}`)).body).toMatchObject({ views: 1, sessions: 1, qualified: 0, qualifyRate: 0, byStep: steps(V2_STEPS, { hello: 1 }) });
  });

  it('from and to are inclusive UTC days', async () => {
    expect((await stats(`?from=${DAY1}&to=${DAY1}`)).body).toEqual({ views: 2, sessions: 3, qualified: 1, disqualified: 1, qualifyRate: 0.5, byStep: steps(V2_STEPS, { ...RUN_STEPS, ...SUBMITTED }) });
    expect((await stats(`?from=${DAY2}`)).body).toEqual({ views: 2, sessions: 2, qualified: 0, disqualified: 0, qualifyRate: 0, byStep: steps(V2_STEPS, { hello: 1 }) });
    expect((await stats(`?to=2026-02-28`)).body).toEqual({ views: 0, sessions: 0, qualified: 0, disqualified: 0, qualifyRate: 0, byStep: steps(V2_STEPS, {}) });
  });

  it('bad dates → 400 naming the field; another flow’s version, another clinic or mode → 404; no FLOWS_ANALYTICS_VIEW → 403', async () => {
    for (const [query, param] of [
      ['?from=2026-02-30', 'from'],
      ['?to=yesterday', 'to'],
      [`?from=${DAY2}&to=${DAY1}`, 'from'],
    ]) {
      const res = await stats(query);
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.param).toBe(param);
    }
    const elsewhere = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument(KEY));
    expectEnvelope(await stats(`?versionId=${elsewhere.versionId}`), 404, 'not_found');
    expectEnvelope(await stats('', b.sandboxKey), 404, 'not_found');
    expectEnvelope(await app.request('GET', '/v1/flows/flw_01jzzzzzzzzzzzzzzzzzzzzzzz/stats', { key: a.sandboxKey }), 404, 'not_found');
    expectEnvelope(await stats('', a.liveKey), 404, 'not_found');
    const restricted = async (scopes: string[]) => {
      const res = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'r', mode: 'sandbox', keyType: 'restricted', scopes } });
      expect(res.status, res.text).toBe(201);
      return res.body.key as string;
    };
    expectEnvelope(await stats('', await restricted(['orders.read'])), 403, 'permission_error');
    expect((await stats('', await restricted(['FLOWS_ANALYTICS_VIEW']))).body.sessions).toBe(5);
  });
});

describe('beacons', () => {
  it('were counted once per session and step under retries; a saved step and its beacon share one completion', async () => {
    const [welcome] = await app.services.database.db.execute(sql`select sum(step_views)::int as views, sum(completes)::int as completes from flow_stats_daily where flow_id = ${world.flowId} and step_id = 'welcome' and day = ${DAY1}`).then((r) => (r as unknown as { rows: { views: number; completes: number }[] }).rows);
    // s1 viewed welcome (twice) and completed it by beacon (twice) and by saving it: one view, one completion; s2 saved it.
    expect(welcome).toEqual({ views: 1, completes: 2 });
  });

  it('concurrent retries of one beacon count once', async () => {
    const c = flowClient(app, world.embedKey);
    const id = await c.started();
    const before = (await stats()).body.views;
    const all = await Promise.all(Array.from({ length: 8 }, () => c.beacon(id, { type: 'view' })));
    expect(all.map((r) => r.status)).toEqual(Array(8).fill(202));
    expect((await stats()).body.views).toBe(before + 1);
  });

  it('400 for a type outside the vocabulary, a step_* without or with an unknown stepId; nothing written', async () => {
    const c = flowClient(app, world.embedKey);
    const id = await c.started();
    const before = { marks: await countRows(app, 'flow_session_marks'), stats: await countRows(app, 'flow_stats_daily') };
    for (const [body, param] of [
      [{ type: 'purchase' }, 'type'],
      [{ type: 'step_viewed' }, 'stepId'],
      [{ type: 'step_completed', stepId: 'welcome' }, 'stepId'],
      [{ type: 'view', extra: 'x' }, undefined],
    ] as const) {
      const res = await c.beacon(id, body);
      expectEnvelope(res, 400, 'validation_error');
      if (param) expect(res.body.error.param).toBe(param);
    }
    expect({ marks: await countRows(app, 'flow_session_marks'), stats: await countRows(app, 'flow_stats_daily') }).toEqual(before);
  });

  it('a completed session still answers 202; an unknown session is 404', async () => {
    const c = flowClient(app, world.embedKey);
    const id = await c.started();
    // Version 2 is active now: its landing step is `hello`.
    await c.answerAll(id, weightRunAnswers().map(([step, answers]): [string, Record<string, unknown>] => [step === 'welcome' ? 'hello' : step, answers]));
    expect((await c.submit(id)).body.verdict).toBe('eligible');
    expect((await c.beacon(id, { type: 'view' })).status).toBe(202);
    expect((await c.beacon(id, { type: 'step_completed', stepId: 'result' })).status).toBe(202);
    expectEnvelope(await c.beacon('fs_01jzzzzzzzzzzzzzzzzzzzzzzz', { type: 'view' }), 404, 'not_found');
  });
});

describe('flowAnalytics.daily (console)', () => {
  it('flow-level counters per UTC day, quiet days as 0; other clinic 404; bad range 400', async () => {
    const series = await client(a.sandboxKey).flowAnalytics.daily.query({ flowId: world.flowId, from: '2026-02-28', to: '2026-03-03' });
    expect(series).toEqual([
      { day: '2026-02-28', views: 0, sessions: 0, qualified: 0, disqualified: 0 },
      { day: DAY1, views: 2, sessions: 3, qualified: 1, disqualified: 1 },
      { day: DAY2, views: 2, sessions: 2, qualified: 0, disqualified: 0 },
      { day: '2026-03-03', views: 0, sessions: 0, qualified: 0, disqualified: 0 },
    ]);
    const today = await client(a.sandboxKey).flowAnalytics.daily.query({ flowId: world.flowId });
    expect(today).toHaveLength(30);
    expect(today[29].day).toBe(new Date().toISOString().slice(0, 10));
    expect((await trpcFailure(client(b.sandboxKey).flowAnalytics.daily.query({ flowId: world.flowId }))).data.httpStatus).toBe(404);
    expect((await trpcFailure(client(a.sandboxKey).flowAnalytics.daily.query({ flowId: world.flowId, from: '2020-01-01', to: '2026-01-01' }))).data.httpStatus).toBe(400);
  });
});
