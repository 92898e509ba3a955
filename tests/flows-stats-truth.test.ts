import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '@/server/lib/clock';
import { flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument, type PinnedQuestionnaireRef } from './helpers/flow-world';
import { countRows, createTenantWithKeys, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';

/*
 * Flow stats that add up (DESIGN decision 34): a session is viewed when it sent `view` or saved a step; a
 * clinical step is completed by its save, never by a beacon; a presentation page by its beacon (or its save,
 * the same mark); the outcome page by the submit. So qualifyRate = qualified / views never exceeds 1, under
 * any range, and no beacon can push byStep past what happened.
 */

const KEY = 'truth';
let app: TestApp;
let a: Clinic;
let q: PinnedQuestionnaireRef;

beforeAll(async () => {
  app = await startTestApp({ EMBED_RATE_LIMIT: '100000' });
  a = await createTenantWithKeys(app, 'Truthful Clinic');
  q = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument(KEY));
});
afterAll(async () => {
  setClock(null);
  await app?.close();
});

/** A fresh published flow of its own, so each case reads its own numbers. */
async function freshFlow() {
  const world = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument(KEY));
  const c = flowClient(app, world.embedKey);
  const stats = async (query = '') => {
    const res = await app.request('GET', `/v1/flows/${world.flowId}/stats${query}`, { key: a.sandboxKey });
    expect(res.status, res.text).toBe(200);
    return res.body as { views: number; sessions: number; qualified: number; disqualified: number; qualifyRate: number; byStep: { stepId: string; completes: number }[] };
  };
  const completes = async (query = '') => Object.fromEntries((await stats(query)).byStep.map((s) => [s.stepId, s.completes]));
  return { world, c, stats, completes };
}

const written = async () => ({ marks: await countRows(app, 'flow_session_marks'), stats: await countRows(app, 'flow_stats_daily'), events: await countRows(app, 'events') });
const sumOf = async (flowId: string) =>
  ((await app.services.database.db.execute(sql`select coalesce(sum(completes), 0)::int as completes, coalesce(sum(views), 0)::int as views from flow_stats_daily where flow_id = ${flowId}`)) as unknown as {
    rows: { completes: number; views: number }[];
  }).rows[0];

describe('a session counts as viewed when it sent view or saved a step', () => {
  it('a run that saves and submits without any beacon is one view, one qualified: qualifyRate 1, never above', async () => {
    const { c, stats, completes } = await freshFlow();
    const id = await c.started();
    await c.answerAll(id, weightRunAnswers());
    const res = await c.submit(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.verdict).toBe('eligible');
    expect(await stats()).toMatchObject({ views: 1, sessions: 1, qualified: 1, disqualified: 0, qualifyRate: 1 });
    // Every saved step once, and the outcome page by the submit.
    expect(await completes()).toEqual({ welcome: 1, goals: 1, body: 1, history: 1, consent: 1, contact: 1, result: 1 });

    // A late view beacon is the same view: nothing moves.
    expect((await c.beacon(id, { type: 'view' })).status).toBe(202);
    expect(await stats()).toMatchObject({ views: 1, qualified: 1, qualifyRate: 1 });
  });

  it('a view beacon, then saves: still one view; a session that only started is no view', async () => {
    const { c, stats } = await freshFlow();
    const viewed = await c.started();
    expect((await c.beacon(viewed, { type: 'view' })).status).toBe(202);
    await c.answerAll(viewed, weightRunAnswers().slice(0, 3));
    await c.started();
    expect(await stats()).toMatchObject({ views: 1, sessions: 2, qualified: 0, qualifyRate: 0 });
  });

  it('a verdict lands on the day the session was first viewed: no single day shows more qualified than views', async () => {
    const { c, stats } = await freshFlow();
    try {
      setClock(() => new Date('2026-05-01T23:50:00Z'));
      const id = await c.started();
      await c.answerAll(id, weightRunAnswers().slice(0, 2));
      setClock(() => new Date('2026-05-02T00:10:00Z'));
      await c.answerAll(id, weightRunAnswers().slice(2));
      expect((await c.submit(id)).body.verdict).toBe('eligible');
    } finally {
      setClock(null);
    }
    expect(await stats('?from=2026-05-01&to=2026-05-01')).toMatchObject({ views: 1, qualified: 1, qualifyRate: 1 });
    expect(await stats('?from=2026-05-02&to=2026-05-02')).toMatchObject({ views: 0, qualified: 0, qualifyRate: 0 });
    expect(await stats()).toMatchObject({ views: 1, qualified: 1, qualifyRate: 1 });
  });
});

describe('beacons cannot inflate byStep', () => {
  it('repeated step_completed beacons for clinical steps and the outcome page are acknowledged and change nothing', async () => {
    const { world, c, stats, completes } = await freshFlow();
    const id = await c.started();
    await c.answerAll(id, weightRunAnswers());
    const before = { stats: await stats(), written: await written() };
    for (const stepId of ['body', 'history', 'consent', 'contact', 'result', 'body', 'result']) {
      const res = await c.beacon(id, { type: 'step_completed', stepId });
      expect(res.status, res.text).toBe(202);
      expect(res.body).toEqual({ ok: true });
    }
    expect(await stats()).toEqual(before.stats);
    expect(await written()).toEqual(before.written);

    // A session that never saved: its clinical and outcome beacons count no completion and no view.
    const idle = await c.started();
    const idleBefore = await sumOf(world.flowId);
    for (let i = 0; i < 3; i++) for (const stepId of ['body', 'history', 'consent', 'contact', 'result']) expect((await c.beacon(idle, { type: 'step_completed', stepId })).status).toBe(202);
    expect(await sumOf(world.flowId)).toEqual(idleBefore);
    expect((await stats()).views).toBe(1);
    expect(await completes()).toMatchObject({ body: 1, history: 1, consent: 1, contact: 1, result: 0 });
  });

  it('a presentation page is completed by its beacon, once per session however often it is sent', async () => {
    const { c, completes } = await freshFlow();
    const id = await c.started();
    for (let i = 0; i < 4; i++) {
      expect((await c.beacon(id, { type: 'step_completed', stepId: 'welcome' })).status).toBe(202);
      expect((await c.beacon(id, { type: 'step_completed', stepId: 'goals' })).status).toBe(202);
    }
    // Its save is the same completion.
    await c.answerAll(id, weightRunAnswers().slice(0, 2));
    expect(await completes()).toMatchObject({ welcome: 1, goals: 1, body: 0 });
  });

  it('saving the outcome page is no completion; the submit is, for either verdict, once', async () => {
    const { c, stats, completes } = await freshFlow();
    const eligible = await c.started();
    await c.answerAll(eligible, [...weightRunAnswers(), ['result', {}]]);
    expect((await completes()).result).toBe(0);
    expect((await c.submit(eligible)).body.verdict).toBe('eligible');
    const disqualified = await c.started();
    await c.answerAll(disqualified, weightRunAnswers({ history: { pregnant: true, takesMeds: false } }));
    expect((await c.submit(disqualified)).body.verdict).toBe('disqualified');
    // An incomplete submit records nothing: not the outcome page either.
    const incomplete = await c.started();
    await c.answerAll(incomplete, weightRunAnswers().slice(0, 3));
    expect((await c.submit(incomplete)).body.verdict).toBe('incomplete');
    expect((await completes()).result).toBe(2);
    expect(await stats()).toMatchObject({ views: 3, sessions: 3, qualified: 1, disqualified: 1, qualifyRate: 1 / 3 });
  });
});
