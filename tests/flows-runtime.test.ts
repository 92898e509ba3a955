import { CONTACT_FIELDS } from '@/server/domain/flows/shared/shapes';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { rotateCertificateKey } from '@/server/domain/intake/certificates';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedKeys, flowVersions } from '@/db/schema';
import { clinicalPlaneHash } from '@/server/domain/flows/clinical-plane';
import { newEmbedKeyId } from '@/server/domain/embed/keys';
import { newId } from '@/server/lib/ids';
import { runMaintenance } from '@/server/jobs/maintenance';
import { CONTACT, flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument, type PinnedQuestionnaireRef } from './helpers/flow-world';
import { countRows, createTenantWithKeys, expectEnvelope, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';

/*
 * The public flow runtime over HTTP (spec "Flows: public runtime", DESIGN decision 24): the patient-safe
 * definition, sessions pinned to a version, per-kind step checks that write and echo nothing on refusal,
 * and submit (eligible, disqualified, incomplete; idempotent) through the intake engine.
 */

const ORIGIN = 'https://clinic.example';
const KEY = 'weight';
let app: TestApp;
let a: Clinic;
let b: Clinic;
let sandboxQ: PinnedQuestionnaireRef;
let liveQ: PinnedQuestionnaireRef;
let sandbox: Awaited<ReturnType<typeof publishedFlow>>;
let live: Awaited<ReturnType<typeof publishedFlow>>;
let other: Awaited<ReturnType<typeof publishedFlow>>;

async function rows(query: ReturnType<typeof sql>) {
  return ((await app.services.database.db.execute(query)) as unknown as { rows: Record<string, any>[] }).rows;
}
const written = async () => ({
  answers: await countRows(app, 'flow_session_answers'),
  marks: await countRows(app, 'flow_session_marks'),
  events: await countRows(app, 'events'),
  submissions: await countRows(app, 'intake_submissions'),
  patients: await countRows(app, 'patients'),
  sessions: await countRows(app, 'flow_sessions'),
});

beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: 'https://rail.example.test', EMBED_RATE_LIMIT: '100000' });
  a = await createTenantWithKeys(app, 'Northside Clinic');
  b = await createTenantWithKeys(app, 'Other Clinic');
  sandboxQ = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument(KEY));
  liveQ = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: true }, weightDocument(KEY));
  const otherQ = await approvedQuestionnaire(app, { tenantId: b.tenantId, livemode: false }, weightDocument(KEY));
  sandbox = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, sandboxQ, weightFlowDocument(KEY));
  live = await publishedFlow(app, { tenantId: a.tenantId, livemode: true }, liveQ, weightFlowDocument(KEY), { allowedOrigins: [ORIGIN] });
  other = await publishedFlow(app, { tenantId: b.tenantId, livemode: false }, otherQ, weightFlowDocument(KEY));
});
afterAll(async () => {
  await app?.close();
});

describe('GET /public/flows/{embedKey}', () => {
  it('is patient-safe: copy, theme as --nl-flow-* variables, medical items; no rules, rule ids, rule text or settings', async () => {
    const res = await flowClient(app, sandbox.embedKey).definition();
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ flowId: sandbox.flowId, versionId: sandbox.versionId, sandbox: true, questionnaire: { key: KEY, version: 1 } });
    expect(res.body.theme).toEqual({ cssVariables: { '--nl-flow-primary': '#0f766e', '--nl-flow-radius': '12px' } });
    expect(res.body.steps.map((s: { id: string; kind: string }) => `${s.id}:${s.kind}`)).toEqual([
      'welcome:landing',
      'goals:quiz',
      'body:medical',
      'history:medical',
      'consent:consent',
      'contact:contact',
      'result:outcome',
    ]);
    const history = res.body.steps[3];
    expect(history.items.map((i: { linkId: string }) => i.linkId)).toEqual(['pregnant', 'takesMeds', 'meds', 'goal']);
    expect(history.items[2]).toEqual({ linkId: 'meds', text: 'Which medications?', type: 'text', required: true, enableWhen: { q: 'takesMeds', op: 'eq', value: true } });
    // The contact step says which earlier answer fills the date of birth (the item age() reads), never the answer.
    expect(res.body.steps[5]).toEqual({ id: 'contact', kind: 'contact', title: 'Where to reach you', fields: [...CONTACT_FIELDS], prefill: { dateOfBirth: 'dob' } });
    expect(res.body).not.toHaveProperty('settings');
    for (const rule of weightDocument(KEY).rules) {
      expect(res.text).not.toContain(`"${rule.id}"`);
      expect(res.text).not.toContain(rule.patientMessage);
    }
    for (const secret of ['rules', 'disqualify', 'review_flag', 'questionnaireKey', 'clinicalPlaneHash']) expect(res.text).not.toContain(secret);
  });

  it('a revoked key, an archived or unpublished flow, and a key of no flow → 404', async () => {
    const world = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, sandboxQ, weightFlowDocument(KEY));
    const client = flowClient(app, world.embedKey);
    expect((await client.definition()).status).toBe(200);
    const session = await client.started();
    await app.services.database.db.execute(sql`update flows set active_version_id = null where id = ${world.flowId}`);
    app.services.servingKeys.invalidate(); // a write behind the domain's back: it announces nothing
    expectEnvelope(await client.definition(), 404, 'not_found');
    expectEnvelope(await client.start(), 404, 'not_found');
    expectEnvelope(await client.step(session, 'welcome', {}), 404, 'not_found');
    await app.services.database.db.execute(sql`update flows set active_version_id = ${world.versionId}, status = 'archived' where id = ${world.flowId}`);
    app.services.servingKeys.invalidate(); // a write behind the domain's back: it announces nothing
    expectEnvelope(await client.definition(), 404, 'not_found');
    expectEnvelope(await client.session(session), 404, 'not_found');
    await app.services.database.db.execute(sql`update flows set status = 'active' where id = ${world.flowId}`);
    app.services.servingKeys.invalidate(); // a write behind the domain's back: it announces nothing
    expect((await client.definition()).status).toBe(200);
    const revoked = await app.request('DELETE', `/v1/embed-keys/${world.embedKey}`, { key: a.sandboxKey });
    expect(revoked.status, revoked.text).toBe(200);
    expectEnvelope(await client.definition(), 404, 'not_found');
    expectEnvelope(await client.submit(session), 404, 'not_found');

    const intakeOnly = await app.request('POST', '/v1/embed-keys', { key: a.sandboxKey, body: { allowedOrigins: [ORIGIN] } });
    expect(intakeOnly.status, intakeOnly.text).toBe(201);
    expectEnvelope(await flowClient(app, intakeOnly.body.id).definition(), 404, 'not_found');
    expectEnvelope(await flowClient(app, intakeOnly.body.id).start(), 404, 'not_found');
  });

  it('live: an origin outside the key is 403 origin_not_allowed; an allowed one and sandbox from anywhere are served', async () => {
    expectEnvelope(await flowClient(app, live.embedKey, 'https://evil.example').definition(), 403, 'permission_error', 'origin_not_allowed');
    expectEnvelope(await flowClient(app, live.embedKey, 'https://evil.example').start(), 403, 'permission_error', 'origin_not_allowed');
    expect((await flowClient(app, live.embedKey).definition()).status).toBe(200);
    expect((await flowClient(app, sandbox.embedKey, 'https://anywhere.example').definition()).status).toBe(200);
  });
});

describe('sessions', () => {
  it('201 with a 128-bit fs_ id pinned to the active version for 24 h, flow.viewed emitted; the resume view starts at the first step', async () => {
    const client = flowClient(app, sandbox.embedKey);
    const before = Date.now();
    const res = await client.start({ variant: 'variant', campaign: 'spring-24' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ versionId: sandbox.versionId, arm: null, variantKey: null, definition: { versionId: sandbox.versionId, sandbox: true } });
    expect(res.body.sessionId).toMatch(/^fs_[0-9a-z]{26}$/);
    const ttl = Date.parse(res.body.expiresAt) - before;
    expect(ttl).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000 + 60_000);
    const events = await rows(sql`select type, data from events where data->>'sessionId' = ${res.body.sessionId}`);
    expect(events).toEqual([{ type: 'flow.viewed', data: { flowId: sandbox.flowId, sessionId: res.body.sessionId, flowVersionId: sandbox.versionId } }]);
    const [row] = await rows(sql`select campaign, variant_key from flow_sessions where id = ${res.body.sessionId}`);
    expect(row).toEqual({ campaign: 'spring-24', variant_key: null });

    const view = await client.session(res.body.sessionId);
    expect(view.status, view.text).toBe(200);
    expect(view.body).toMatchObject({ sessionId: res.body.sessionId, status: 'open', completedStepIds: [], nextStepId: 'welcome', outcome: null });
    expectEnvelope(await client.start({ campaign: 'no spaces allowed' }), 400, 'validation_error');
  });

  it('a session keeps its version after a new one is published; new sessions get the new one', async () => {
    const world = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, sandboxQ, weightFlowDocument(KEY));
    const client = flowClient(app, world.embedKey);
    const old = await client.started();
    const doc = weightFlowDocument(KEY);
    doc.steps[0] = { id: 'hello', kind: 'landing', blocks: { headline: 'New headline' } };
    const v2 = newId('flowVersion');
    const at = new Date();
    await app.services.database.db.insert(flowVersions).values({
      id: v2,
      tenantId: a.tenantId,
      livemode: false,
      flowId: world.flowId,
      number: 2,
      status: 'published',
      document: doc,
      questionnaireId: sandboxQ.id,
      questionnaireKey: KEY,
      questionnaireVersion: 1,
      clinicalPlaneHash: clinicalPlaneHash(doc, sandboxQ),
      publishedBy: 'usr_test',
      approvedBy: 'usr_test',
      approvedAt: at,
      publishedAt: at,
      createdAt: at,
    });
    await app.services.database.db.execute(sql`update flows set active_version_id = ${v2} where id = ${world.flowId}`);
    app.services.servingKeys.invalidate(); // a write behind the domain's back: it announces nothing

    const fresh = await client.start();
    expect(fresh.body.versionId).toBe(v2);
    expect(fresh.body.definition.steps[0]).toEqual({ id: 'hello', kind: 'landing', blocks: { headline: 'New headline' } });
    const view = await client.session(old);
    expect(view.body.versionId).toBe(world.versionId);
    expect(view.body.definition.steps[0].id).toBe('welcome');
    // The old session runs on its own version: its step ids, not the new ones.
    expectEnvelope(await client.step(old, 'hello', {}), 400, 'validation_error');
    await client.answerAll(old, weightRunAnswers());
    const done = await client.submit(old);
    expect(done.body.verdict, done.text).toBe('eligible');
    const [sub] = await rows(sql`select flow_id, flow_session_id from intake_submissions where id = ${done.body.submissionId}`);
    expect(sub).toEqual({ flow_id: world.flowId, flow_session_id: old });
  });

  it("another key's session, another clinic's key, an unknown or an expired session → 404 without the id", async () => {
    const client = flowClient(app, sandbox.embedKey);
    const id = await client.started();
    // A second key serving the same flow still cannot reach the first key's session.
    const second = newEmbedKeyId();
    const at = new Date();
    await app.services.database.db.insert(embedKeys).values({ id: second, tenantId: a.tenantId, livemode: false, name: 'second', allowedOrigins: [ORIGIN], flowId: sandbox.flowId, questionnaireKeys: [], createdAt: at, updatedAt: at });
    for (const res of [
      await flowClient(app, second).session(id),
      await flowClient(app, second).step(id, 'welcome', {}),
      await flowClient(app, second).submit(id),
      await flowClient(app, second).beacon(id, { type: 'view' }),
      await flowClient(app, other.embedKey).session(id),
      await flowClient(app, other.embedKey).step(id, 'welcome', {}),
      await client.session('fs_01jzzzzzzzzzzzzzzzzzzzzzzz'),
    ]) {
      expectEnvelope(res, 404, 'not_found');
      expect(res.text).not.toContain(id);
    }
    await client.step(id, 'body', { dob: '1980-04-02', height: 170, weight: 84 });
    const open = await client.started();
    await client.step(open, 'welcome', {});
    await app.services.database.db.execute(sql`update flow_sessions set expires_at = now() - interval '1 second' where id = ${id}`);
    expectEnvelope(await client.session(id), 404, 'not_found');
    expectEnvelope(await client.step(id, 'welcome', {}), 404, 'not_found');
    // Housekeeping drops the expired session's held answers; the open session keeps its own.
    await runMaintenance(app.services.database.db, app.services.config);
    expect((await rows(sql`select session_id from flow_session_answers where session_id in (${id}, ${open})`)).map((r) => r.session_id)).toEqual([open]);
  });
});

describe('POST …/steps', () => {
  let client: ReturnType<typeof flowClient>;
  let id: string;
  beforeAll(async () => {
    client = flowClient(app, sandbox.embedKey);
    id = await client.started();
  });

  it.each([
    ['body', { dob: '1980-04-02', height: 'Secret-Height-777', weight: 84 }, 'answers.height', 'Secret-Height-777'],
    ['body', { dob: '1980-04-02', height: 170, weight: 84, pregnant: true }, 'answers.pregnant', 'pregnant": true'],
    ['body', { dob: '1980-04-02', weight: 84 }, 'answers.height', '1980-04-02'],
    ['history', { pregnant: false, takesMeds: true }, 'answers.meds', 'takesMeds'],
    ['history', { pregnant: false, takesMeds: false, goal: 'Secret-Goal-Value' }, 'answers.goal', 'Secret-Goal-Value'],
    ['goals', { motivation: 'Secret-Motivation' }, 'answers.motivation', 'Secret-Motivation'],
    ['goals', {}, 'answers.motivation', ''],
    ['consent', { accepted: true, version: '1999-01' }, 'answers.version', '1999-01'],
    ['consent', { accepted: false, version: '2026-01' }, 'answers.accepted', ''],
    ['contact', { ...CONTACT, email: 'Secret-Not-An-Email' }, 'answers.email', 'Secret-Not-An-Email'],
    ['contact', { ...CONTACT, state: 'ZZ' }, 'answers.state', 'ZZ'],
    ['contact', { ...CONTACT, dateOfBirth: '2999-01-01' }, 'answers.dateOfBirth', '2999-01-01'],
    ['welcome', { something: 'Secret-Landing' }, 'answers.something', 'Secret-Landing'],
  ])('step %s with a misfit → 400 naming %s, value not echoed, nothing written', async (stepId, answers, param, planted) => {
    const before = await written();
    const res = await client.step(id, stepId, answers);
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe(param);
    if (planted) expect(res.text).not.toContain(planted);
    expect(await written()).toEqual(before);
  });

  it('an unknown step → 400 param stepId; nothing written', async () => {
    const before = await written();
    const res = await client.step(id, 'nope', {});
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe('stepId');
    expect(await written()).toEqual(before);
  });

  it('saves, answers the next step, emits step.completed once, holds the answers apart and returns them only to the session itself', async () => {
    const first = await client.step(id, 'welcome', {});
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ ok: true, nextStepId: 'goals' });
    expect((await client.step(id, 'body', { dob: '1980-04-02', height: 170, weight: 84 })).body).toEqual({ ok: true, nextStepId: 'goals' });
    // Saving a step again replaces its answers; the event is not repeated.
    expect((await client.step(id, 'body', { dob: '1980-04-02', height: 171, weight: 84 })).status).toBe(200);
    const events = await rows(sql`select data->>'stepId' as step from events where type = 'step.completed' and data->>'sessionId' = ${id} order by created_at`);
    expect(events.map((e) => e.step)).toEqual(['welcome', 'body']);
    const [held] = await rows(sql`select steps from flow_session_answers where session_id = ${id}`);
    expect(held.steps).toEqual({ welcome: {}, body: { dob: '1980-04-02', height: 171, weight: 84 } });
    const view = await client.session(id);
    expect(view.body).toMatchObject({ completedStepIds: ['welcome', 'body'], nextStepId: 'goals' });
    // The session's own resume view, for a while (DESIGN decision 44; tests/flows-resume-answers.test.ts); no other response.
    expect(view.body.answers).toEqual({ welcome: {}, body: { dob: '1980-04-02', height: 171, weight: 84 } });
  });

  it('saves of one step racing: one step.completed, one completion counted, one of the two held', async () => {
    const client = flowClient(app, sandbox.embedKey);
    const racing = await client.started();
    const saves = await Promise.all([170, 171, 172, 173].map((height) => client.step(racing, 'body', { dob: '1980-04-02', height, weight: 84 })));
    expect(saves.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const events = await rows(sql`select 1 from events where type = 'step.completed' and data->>'sessionId' = ${racing}`);
    expect(events).toHaveLength(1);
    const marks = await rows(sql`select mark from flow_session_marks where session_id = ${racing} and mark like '%body' order by mark`);
    expect(marks.map((m) => m.mark)).toEqual(['completed:body', 'saved:body']);
    const [held] = await rows(sql`select steps from flow_session_answers where session_id = ${racing}`);
    expect([170, 171, 172, 173]).toContain(held.steps.body.height);
  });
});

describe('POST …/submit', () => {
  const jwks = async () => createLocalJWKSet((await app.request('GET', '/v1/certificates/jwks.json')).body);

  it('eligible: a certificate that verifies with cph, a flow submission in the review queue; a replay is the same answer, no second submission', async () => {
    const client = flowClient(app, sandbox.embedKey);
    const id = await client.started();
    const last = await client.answerAll(id, weightRunAnswers());
    expect(last.body.nextStepId).toBeNull();
    const key = randomUUID();
    const before = await written();
    const res = await client.submit(id, undefined, key);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ sessionId: id, verdict: 'eligible', sandbox: true, title: 'You may be eligible', body: 'A clinician will review your answers.' });
    expect(res.body.message).toContain('provider will review');
    expect(res.body).not.toHaveProperty('checkoutUrl');
    const { payload } = await jwtVerify(res.body.certificate, await jwks(), { algorithms: ['EdDSA'] });
    expect(payload).toMatchObject({ sub: res.body.submissionId, cph: sandbox.clinicalPlaneHash, verdict: 'eligible', qk: KEY, qv: 1, tid: a.tenantId, livemode: false });

    const replay = await client.submit(id, undefined, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(res.body);
    const after = await written();
    expect(after.submissions).toBe(before.submissions + 1);
    expect(after.patients).toBe(before.patients + 1);

    const queue = await app.request('GET', '/v1/intake/submissions?status=pending_review&sandbox=true', { key: a.sandboxKey });
    expect(queue.status, queue.text).toBe(200);
    expect(queue.body.find((s: { id: string }) => s.id === res.body.submissionId)).toMatchObject({ source: 'flow', status: 'pending_review' });

    const types = await rows(sql`select type, data from events where data->>'sessionId' = ${id} and type like 'flow.%' order by created_at, id`);
    expect(types.map((e) => e.type).sort()).toEqual(['flow.qualified', 'flow.session.completed', 'flow.session.qualified', 'flow.viewed']);
    expect(types.find((e) => e.type === 'flow.qualified')!.data).toEqual({ flowId: sandbox.flowId, sessionId: id, submissionId: res.body.submissionId, verdict: 'eligible' });

    const view = await client.session(id);
    expect(view.body).toMatchObject({ status: 'completed', nextStepId: null, outcome: { verdict: 'eligible', title: 'You may be eligible' } });
    // The held answers went to the submission; the session keeps only which steps were saved.
    const [held] = await rows(sql`select steps from flow_session_answers where session_id = ${id}`);
    expect(held.steps).toEqual({ welcome: {}, goals: {}, body: {}, history: {}, consent: {}, contact: {} });
    expectEnvelope(await client.step(id, 'welcome', {}), 409, 'conflict', 'session_completed');
    // Refused answers too: a submitted session says so first, as it did when the session was read before the answers.
    expectEnvelope(await client.step(id, 'body', { dob: '1980-04-02', height: 'tall', weight: 84 }), 409, 'conflict', 'session_completed');
    expectEnvelope(await client.step(id, 'nope', {}), 409, 'conflict', 'session_completed');
    expectEnvelope(await client.submit(id), 409, 'conflict', 'session_completed');
    expect(await written()).toEqual(after);
  });

  it('signs with the process’s signing key, and with the new one as soon as this process rotates (issue 35: no key read per submit)', async () => {
    const client = flowClient(app, sandbox.embedKey);
    const kidOf = (jws: string) => decodeProtectedHeader(jws).kid;
    const run = async () => {
      const id = await client.started();
      await client.answerAll(id, weightRunAnswers());
      const res = await client.submit(id);
      expect(res.status, res.text).toBe(200);
      await jwtVerify(res.body.certificate, await jwks(), { algorithms: ['EdDSA'] });
      return kidOf(res.body.certificate);
    };
    const first = await run();
    expect(await run()).toBe(first);
    const rotated = await rotateCertificateKey(app.services.database.db, app.services.auth.secret);
    expect(rotated.retired).toContain(first);
    expect(await run()).toBe(rotated.kid);
  });

  it('two submits of one session with different keys at once: one submission, the other 409 session_completed', async () => {
    const client = flowClient(app, sandbox.embedKey);
    const id = await client.started();
    await client.answerAll(id, weightRunAnswers());
    const before = await countRows(app, 'intake_submissions');
    const both = await Promise.all([client.submit(id), client.submit(id)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.body.error.code).toBe('session_completed');
    expect(await countRows(app, 'intake_submissions')).toBe(before + 1);
  });

  it('disqualified: a submission without certificate, the clinic’s disqualified copy, flow.disqualified', async () => {
    const client = flowClient(app, sandbox.embedKey);
    const id = await client.started();
    await client.answerAll(id, weightRunAnswers({ history: { pregnant: true, takesMeds: false } }));
    const res = await client.submit(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ verdict: 'disqualified', title: 'We cannot help online', body: 'Please talk to your doctor.', sandbox: true });
    expect(res.body).not.toHaveProperty('certificate');
    expect(res.body.submissionId).toMatch(/^isub_/);
    // The patient-safe reason is the clinic's message for the patient (issue 33 item 5), never the rule's id.
    expect(res.body.patientMessages).toEqual(['This treatment is not safe during pregnancy.']);
    expect(res.text).not.toContain('"pregnancy"');
    const types = await rows(sql`select type from events where data->>'sessionId' = ${id} order by type`);
    expect(types.map((e) => e.type)).toContain('flow.disqualified');
    expect(types.map((e) => e.type)).not.toContain('flow.qualified');
  });

  it('incomplete: an unsaved clinical step records nothing and leaves the session open; finishing it then qualifies', async () => {
    const client = flowClient(app, sandbox.embedKey);
    const id = await client.started();
    await client.answerAll(id, weightRunAnswers().filter(([s]) => s !== 'contact'));
    const before = await written();
    const res = await client.submit(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ sessionId: id, verdict: 'incomplete', sandbox: true });
    expect(res.body).not.toHaveProperty('submissionId');
    expect(await written()).toEqual(before);
    expect((await client.session(id)).body).toMatchObject({ status: 'open', nextStepId: 'contact' });
    await client.step(id, 'contact', CONTACT);
    expect((await client.submit(id)).body.verdict).toBe('eligible');
  });

  it('without Idempotency-Key → 400, nothing written; a bad patient e-mail → 400 not echoed', async () => {
    const client = flowClient(app, sandbox.embedKey);
    const id = await client.started();
    await client.answerAll(id, weightRunAnswers());
    const before = await written();
    const res = await client.submit(id, undefined, null);
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe('Idempotency-Key');
    const bad = await client.submit(id, { name: 'X', email: 'Secret-Bad-Mail' });
    expectEnvelope(bad, 400, 'validation_error');
    expect(bad.body.error.param).toBe('patient.email');
    expect(bad.text).not.toContain('Secret-Bad-Mail');
    expect(await written()).toEqual(before);
  });

  it('live: the patient is created from the contact step (the submit body agreeing with it) with the reconciled date of birth, then matched by e-mail', async () => {
    const client = flowClient(app, live.embedKey);
    const run = async (email: string) => {
      const id = await client.started();
      await client.answerAll(id, weightRunAnswers({ contact: { ...CONTACT, name: 'Augusta Ada King', email } }));
      const res = await client.submit(id, { name: 'Augusta Ada King', email });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ verdict: 'eligible', sandbox: false });
      return res.body.submissionId as string;
    };
    const first = await run('augusta@example.org');
    const [row] = await rows(sql`select s.source, s.livemode, p.first_name, p.last_name, p.email, p.date_of_birth, p.synthetic from intake_submissions s join patients p on p.id = s.patient_id where s.id = ${first}`);
    expect(row).toMatchObject({ source: 'flow', livemode: true, first_name: 'Augusta Ada', last_name: 'King', email: 'augusta@example.org', date_of_birth: '1980-04-02', synthetic: false });
    const patients = await countRows(app, 'patients');
    const second = await run('AUGUSTA@example.org');
    expect(await countRows(app, 'patients')).toBe(patients);
    const ids = await rows(sql`select distinct patient_id from intake_submissions where id in (${first}, ${second})`);
    expect(ids).toHaveLength(1);
  });
});
