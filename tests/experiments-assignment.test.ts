import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { armOf, bucketOf } from '@/server/domain/experiments/assignment';
import { srmPValue } from '@/server/domain/experiments/stats';
import { newSecretId } from '@/server/lib/ids';
import { flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument, type PinnedQuestionnaireRef } from './helpers/flow-world';
import { createScratchDatabase, createTenantWithKeys, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';

/*
 * Assignment and arms (DESIGN decision 27) through the public runtime: the bucket decides (never the client's
 * hint), the arm is sticky and stamped on the session, `experiment.exposed` once, each arm served its own
 * presentation over identical clinical steps, results counted per arm in the aggregate, control after the stop.
 */

const KEY = 'weight';
let app: TestApp;
let a: Clinic;
let q: PinnedQuestionnaireRef;

/** The bucket as DESIGN decision 27 words it, computed here without the server's code. */
function expectedArm(experimentId: string, sessionId: string, splitPct: number) {
  const digest = createHash('sha256').update(`${experimentId}:${sessionId}`).digest();
  const bucket = ((digest[0] << 24) >>> 0) + (digest[1] << 16) + (digest[2] << 8) + digest[3];
  return bucket % 10_000 < splitPct * 100 ? 'variant' : 'control';
}

const VARIANT = [
  { stepId: 'welcome', blocks: { headline: 'Feel better, with a clinician', cta: 'Check eligibility' } },
  { stepId: 'result', blocks: { eligibleTitle: 'Good news!', disqualifiedTitle: 'Not a fit online' } },
  { stepId: '$flow', blocks: { theme: { primary: '#1d4ed8', radius: null }, order: ['goals', 'welcome', 'result'] } },
];
const CLINICAL = new Set(['medical', 'consent', 'contact']);

async function rows(query: ReturnType<typeof sql>) {
  return ((await app.services.database.db.execute(query)) as unknown as { rows: Record<string, any>[] }).rows;
}

async function experimentOn(flowId: string, splitPct: number, overrides: unknown[] = VARIANT) {
  const res = await app.request('POST', `/v1/flows/${flowId}/experiments`, { key: a.sandboxKey, body: { name: 'Arms', splitPct, overrides } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/** Sessions until both arms have at least `n` (at 50% a handful suffices). */
async function sessionsOfBothArms(embedKey: string, n = 1) {
  const client = flowClient(app, embedKey);
  const byArm: Record<'control' | 'variant', any[]> = { control: [], variant: [] };
  for (let i = 0; i < 200 && (byArm.control.length < n || byArm.variant.length < n); i++) {
    const res = await client.start();
    expect(res.status, res.text).toBe(201);
    byArm[res.body.arm as 'control' | 'variant'].push(res.body);
  }
  return byArm;
}

beforeAll(async () => {
  app = await startTestApp({ EMBED_RATE_LIMIT: '100000' });
  a = await createTenantWithKeys(app, 'Northside Clinic');
  q = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument(KEY));
});
afterAll(async () => {
  await app?.close();
});

describe('assignment', () => {
  it('the arm is the bucket of (experiment, session), whatever the hint; stamped on the session; exposed once', async () => {
    const flow = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument(KEY));
    const expId = await experimentOn(flow.flowId, 50);
    const client = flowClient(app, flow.embedKey);
    const seen = { control: 0, variant: 0 };
    for (let i = 0; i < 24; i++) {
      const hint = i % 2 ? 'variant' : 'control';
      const res = await client.start({ variant: hint });
      expect(res.status, res.text).toBe(201);
      const { sessionId, arm, variantKey } = res.body;
      expect(arm).toBe(expectedArm(expId, sessionId, 50));
      expect(variantKey).toBe(arm);
      seen[arm as 'control' | 'variant']++;
      const [row] = await rows(sql`select experiment_id, variant_key from flow_sessions where id = ${sessionId}`);
      expect(row).toEqual({ experiment_id: expId, variant_key: arm });
      const exposed = await rows(sql`select data from events where type = 'experiment.exposed' and data->>'sessionId' = ${sessionId}`);
      expect(exposed).toEqual([{ data: { flowId: flow.flowId, sessionId, experimentId: expId, variantKey: arm } }]);
      // Sticky: the resume view, read twice, keeps the arm; reading emits no second exposure.
      for (let k = 0; k < 2; k++) expect((await client.session(sessionId)).body).toMatchObject({ arm, variantKey: arm });
      expect(await rows(sql`select id from events where type = 'experiment.exposed' and data->>'sessionId' = ${sessionId}`)).toHaveLength(1);
    }
    // Both arms occur (all 24 in one arm has probability 2^-23), so the hint was not followed.
    expect(seen.control).toBeGreaterThan(0);
    expect(seen.variant).toBeGreaterThan(0);
  });

  it('a 0% split puts every session in the control and 100% in the variant, all exposed', async () => {
    const flow0 = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument(KEY));
    await experimentOn(flow0.flowId, 0);
    const flow100 = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument(KEY));
    await experimentOn(flow100.flowId, 100);
    for (let i = 0; i < 5; i++) {
      expect((await flowClient(app, flow0.embedKey).start({ variant: 'variant' })).body.arm).toBe('control');
      expect((await flowClient(app, flow100.embedKey).start({ variant: 'control' })).body.arm).toBe('variant');
    }
    for (const [flowId, arm] of [[flow0.flowId, 'control'], [flow100.flowId, 'variant']]) {
      const exposed = await rows(sql`select data->>'variantKey' as arm, count(*)::int as n from events where type = 'experiment.exposed' and data->>'flowId' = ${flowId} group by 1`);
      expect(exposed).toEqual([{ arm, n: 5 }]);
    }
  });

  it('10,000 sessions at 30% land within tolerance of 30%, buckets are uniform, and a session id always lands in the same arm', () => {
    const expId = 'exp_01jz8x3m4r5t6v7w8x9y0z1a2b';
    const ids = Array.from({ length: 10_000 }, () => newSecretId('flowSession'));
    const variant = ids.filter((id) => armOf(expId, id, 3000) === 'variant').length;
    // Binomial(10,000, 0.3): sd ≈ 45.8; ±5 sd.
    expect(Math.abs(variant - 3000)).toBeLessThan(230);
    expect(srmPValue(10_000 - variant, variant, 0.3)).toBeGreaterThan(1e-6);
    // Ten equal bands of buckets: chi-square with 9 df stays far below its 1e-6 critical value (about 47.2).
    const bands = new Array(10).fill(0);
    for (const id of ids) bands[Math.floor(bucketOf(expId, id) / 1000)]++;
    const chi = bands.reduce((s, o) => s + (o - 1000) ** 2 / 1000, 0);
    expect(chi).toBeLessThan(47.2);
    for (const id of ids.slice(0, 500)) {
      expect(armOf(expId, id, 3000)).toBe(expectedArm(expId, id, 30));
      expect(armOf(expId, id, 3000)).toBe(armOf(expId, id, 3000));
    }
    // Another experiment buckets the same sessions independently.
    const other = ids.filter((id) => armOf('exp_01jz8x3m4r5t6v7w8x9y0z1a2c', id, 3000) === 'variant');
    const both = other.filter((id) => armOf(expId, id, 3000) === 'variant').length;
    expect(Math.abs(both - 900)).toBeLessThan(150);
  });
});

describe("each arm's presentation", () => {
  it("the variant gets its copy, theme and order; both arms get identical clinical steps; resume returns the arm's definition", async () => {
    const flow = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument(KEY));
    const expId = await experimentOn(flow.flowId, 50);
    const client = flowClient(app, flow.embedKey);
    const { control: [control], variant: [variant] } = await sessionsOfBothArms(flow.embedKey);
    const plain = (await client.definition()).body;

    expect(control.definition).toEqual(plain);
    expect(variant.definition.steps.map((s: { id: string }) => s.id)).toEqual(['goals', 'welcome', 'body', 'history', 'consent', 'contact', 'result']);
    expect(variant.definition.steps[1].blocks).toEqual({ headline: 'Feel better, with a clinician', body: 'Answer a few questions.', cta: 'Check eligibility' });
    expect(variant.definition.steps[6].blocks).toMatchObject({ eligibleTitle: 'Good news!', disqualifiedTitle: 'Not a fit online' });
    expect(variant.definition.theme).toEqual({ cssVariables: { '--nl-flow-primary': '#1d4ed8' } });
    const clinical = (def: { steps: { kind: string }[] }) => def.steps.map((s, i) => ({ i, s })).filter(({ s }) => CLINICAL.has(s.kind));
    expect(clinical(variant.definition)).toEqual(clinical(control.definition));
    expect(variant.definition).toMatchObject({ flowId: flow.flowId, versionId: flow.versionId, questionnaire: control.definition.questionnaire, sandbox: true });

    for (const s of [control, variant]) {
      const view = await client.session(s.sessionId);
      expect(view.body.definition).toEqual(s.definition);
    }
    // The next step follows the arm's order.
    expect((await client.session(control.sessionId)).body.nextStepId).toBe('welcome');
    expect((await client.session(variant.sessionId)).body.nextStepId).toBe('goals');
    expect((await client.step(variant.sessionId, 'goals', { motivation: 'health' })).body).toEqual({ ok: true, nextStepId: 'welcome' });
    expect((await client.step(control.sessionId, 'welcome', {})).body).toEqual({ ok: true, nextStepId: 'goals' });
    expect((await client.session(variant.sessionId)).body.completedStepIds).toEqual(['goals']);
    expect(expId).toMatch(/^exp_/);
  });

  it('the same answers through both arms: identical clinical-plane hash, verdict and certificate claims but sub and iat', async () => {
    const flow = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument(KEY));
    await experimentOn(flow.flowId, 50);
    const client = flowClient(app, flow.embedKey);
    const { control: [control], variant: [variant] } = await sessionsOfBothArms(flow.embedKey);
    const outcomes = [];
    for (const s of [control, variant]) {
      await client.answerAll(s.sessionId, weightRunAnswers());
      const res = await client.submit(s.sessionId);
      expect(res.status, res.text).toBe(200);
      outcomes.push(res.body);
    }
    const [c, v] = outcomes;
    expect(c.verdict).toBe('eligible');
    expect(v.verdict).toBe(c.verdict);
    expect(v.message).toBe(c.message);
    // The outcome copy is the arm's.
    expect(c.title).toBe('You may be eligible');
    expect(v.title).toBe('Good news!');
    const { sub: subC, iat: _ic, ...claimsC } = decodeJwt(c.certificate);
    const { sub: subV, iat: _iv, ...claimsV } = decodeJwt(v.certificate);
    expect(subC).toBe(c.submissionId);
    expect(subV).toBe(v.submissionId);
    expect(claimsV).toEqual(claimsC);
    expect(claimsC).toMatchObject({ cph: flow.clinicalPlaneHash, verdict: 'eligible' });
    const sessions = await rows(sql`select variant_key, verdict, flow_version_id from flow_sessions where id in (${control.sessionId}, ${variant.sessionId}) order by variant_key`);
    expect(sessions).toEqual([
      { variant_key: 'control', verdict: 'eligible', flow_version_id: flow.versionId },
      { variant_key: 'variant', verdict: 'eligible', flow_version_id: flow.versionId },
    ]);
    // Resumed after the run: the arm's outcome copy.
    expect((await client.session(variant.sessionId)).body.outcome).toMatchObject({ verdict: 'eligible', title: 'Good news!' });
  });
});

describe('results and stop', () => {
  it('sessions and qualified are counted per arm in the aggregate and listed with the analysis', async () => {
    const flow = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument(KEY));
    const expId = await experimentOn(flow.flowId, 50);
    const client = flowClient(app, flow.embedKey);
    const byArm = await sessionsOfBothArms(flow.embedKey, 3);
    // Two eligible control runs, one eligible and one disqualified variant run.
    for (const s of byArm.control.slice(0, 2)) {
      await client.answerAll(s.sessionId, weightRunAnswers());
      expect((await client.submit(s.sessionId)).body.verdict).toBe('eligible');
    }
    await client.answerAll(byArm.variant[0].sessionId, weightRunAnswers());
    expect((await client.submit(byArm.variant[0].sessionId)).body.verdict).toBe('eligible');
    await client.answerAll(byArm.variant[1].sessionId, weightRunAnswers({ history: { pregnant: true, takesMeds: false, goal: 'lose' } }));
    expect((await client.submit(byArm.variant[1].sessionId)).body.verdict).toBe('disqualified');

    const aggregate = await rows(
      sql`select arm, sum(sessions)::int as sessions, sum(qualified)::int as qualified, sum(disqualified)::int as disqualified from flow_stats_daily where flow_id = ${flow.flowId} and step_id = '' and experiment_id = ${expId} group by arm order by arm`,
    );
    const nc = byArm.control.length;
    const nv = byArm.variant.length;
    expect(aggregate).toEqual([
      { arm: 'control', sessions: nc, qualified: 2, disqualified: 0 },
      { arm: 'variant', sessions: nv, qualified: 1, disqualified: 1 },
    ]);
    const [listed] = (await app.request('GET', `/v1/flows/${flow.flowId}/experiments`, { key: a.sandboxKey })).body;
    expect(listed.results).toEqual({
      control: { sessions: nc, qualified: 2, qualifyRate: 2 / nc },
      variant: { sessions: nv, qualified: 1, qualifyRate: 1 / nv },
    });
    expect(listed.analysis).toMatchObject({ srmPValue: srmPValue(nc, nv, 0.5), enoughData: false });
    expect(listed.analysis.relativeUplift.estimate).toBeCloseTo(1 / nv / (2 / nc) - 1, 10);
    // The flow's own stats still add both arms up.
    const stats = await app.request('GET', `/v1/flows/${flow.flowId}/stats`, { key: a.sandboxKey });
    expect(stats.body).toMatchObject({ sessions: nc + nv, qualified: 3, disqualified: 1 });
  });

  it('after the stop new sessions get the control with no arm and no exposure; sessions already in the variant keep it', async () => {
    const flow = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument(KEY));
    const expId = await experimentOn(flow.flowId, 50);
    const client = flowClient(app, flow.embedKey);
    const { variant: [before] } = await sessionsOfBothArms(flow.embedKey);
    expect((await app.request('POST', `/v1/flows/experiments/${expId}/stop`, { key: a.sandboxKey, body: { winnerVariant: 'variant' } })).status).toBe(200);
    const plain = (await client.definition()).body;
    for (let i = 0; i < 6; i++) {
      const res = await client.start({ variant: 'variant' });
      expect(res.body).toMatchObject({ arm: null, variantKey: null });
      expect(res.body.definition).toEqual(plain);
      expect(await rows(sql`select id from events where type = 'experiment.exposed' and data->>'sessionId' = ${res.body.sessionId}`)).toEqual([]);
      const [row] = await rows(sql`select experiment_id, variant_key from flow_sessions where id = ${res.body.sessionId}`);
      expect(row).toEqual({ experiment_id: null, variant_key: null });
    }
    const resumed = await client.session(before.sessionId);
    expect(resumed.body).toMatchObject({ arm: 'variant', variantKey: 'variant' });
    expect(resumed.body.definition).toEqual(before.definition);
  });

  it('a later version the overrides no longer fit: new sessions are not enrolled', async () => {
    const flow = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument(KEY));
    await experimentOn(flow.flowId, 100);
    const doc = weightFlowDocument(KEY);
    doc.steps = doc.steps.filter((s) => s.id !== 'welcome');
    const v2 = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, doc);
    // Point the flow at a version without the overridden step (as a copy-only publication would).
    await app.services.database.db.execute(sql`update flow_versions set flow_id = ${flow.flowId}, number = 2 where id = ${v2.versionId}`);
    await app.services.database.db.execute(sql`update flows set active_version_id = ${v2.versionId} where id = ${flow.flowId}`);
    app.services.servingKeys.invalidate(); // a write behind the domain's back: it announces nothing
    const res = await flowClient(app, flow.embedKey).start();
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ versionId: v2.versionId, arm: null, variantKey: null });
  });
});

describe('across a restart', () => {
  it('a session keeps its arm when a fresh app reads it, and the arm is the recomputed bucket', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-exp-'));
    const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : null;
    const env = scratch ? { DATABASE_URL: scratch.url } : { PGLITE_DATA_DIR: dir };
    try {
      let first: TestApp | undefined = await startTestApp(env, { embedded: true });
      const clinic = await createTenantWithKeys(first, 'Restart Clinic');
      const qr = await approvedQuestionnaire(first, { tenantId: clinic.tenantId, livemode: false }, weightDocument(KEY));
      const flow = await publishedFlow(first, { tenantId: clinic.tenantId, livemode: false }, qr, weightFlowDocument(KEY));
      const exp = await first.request('POST', `/v1/flows/${flow.flowId}/experiments`, { key: clinic.sandboxKey, body: { name: 'Restart', splitPct: 30, overrides: VARIANT } });
      expect(exp.status, exp.text).toBe(201);
      const sessions: { sessionId: string; arm: string; definition: unknown }[] = [];
      for (let i = 0; i < 8; i++) sessions.push((await flowClient(first, flow.embedKey).start()).body);
      await first.close();
      first = undefined;

      const second = await startTestApp(env, { embedded: true });
      try {
        for (const s of sessions) {
          expect(s.arm).toBe(expectedArm(exp.body.id, s.sessionId, 30));
          const view = await flowClient(second, flow.embedKey).session(s.sessionId);
          expect(view.status, view.text).toBe(200);
          expect(view.body).toMatchObject({ arm: s.arm, variantKey: s.arm });
          expect(view.body.definition).toEqual(s.definition);
        }
      } finally {
        await second.close();
      }
    } finally {
      await scratch?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// A session id's randomness is not what makes the bucket uniform: the hash is. Ids below are sequential.
it('sequential ids spread evenly too', () => {
  const base = randomBytes(8).toString('hex');
  let variant = 0;
  for (let i = 0; i < 10_000; i++) if (armOf('exp_01jz8x3m4r5t6v7w8x9y0z1a2b', `${base}${i}`, 3000) === 'variant') variant++;
  expect(Math.abs(variant - 3000)).toBeLessThan(230);
});
