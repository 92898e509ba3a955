import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { embedKeys } from '@/db/schema';
import { newEmbedKeyId } from '@/server/domain/embed/keys';
import { ANSWERS_SHOWN_MS } from '@/server/domain/flows/runtime/sessions';
import { setClock } from '@/server/lib/clock';
import { flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { createTenantWithKeys, expectEnvelope, startTestApp, type ApiResponse, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';
import { captureLogs } from './helpers/logs';

/*
 * Issue 50 item 1 over HTTP (DESIGN decision 44, refining 24): a patient who reloads or whose tab was discarded
 * sees what they answered, because the session's own resume view (GET …/sessions/{id}, the id being the run's
 * bearer secret) gives back what the session saved, while it is open and its last save is under 30 minutes old.
 * Never to another session, never after 30 idle minutes or the submit, never in any other response or log line.
 */

const ORIGIN = 'https://clinic.example';
const NAME = 'Philippa Resumewell';
const EMAIL = 'philippa.resumewell@planted.example';
const DOB = '1962-03-19';
const MEDS = 'Planted-Resume-Regimen';
const NEEDLES = [/resumewell/i, /planted\.example/i, /1962-03-19/, /planted-resume/i, /9 Resume Lane/i, /\+14155550134/];
const CONTACT = { name: NAME, email: EMAIL, state: 'CA', dateOfBirth: DOB, phone: '(415) 555-0134', addressLine1: '9 Resume Lane', addressLine2: 'Unit 4', city: 'Oakland', postalCode: '94607' };
const RUN = weightRunAnswers({ body: { dob: DOB, height: 170, weight: 84 }, history: { pregnant: false, takesMeds: true, meds: MEDS, goal: 'lose' }, contact: CONTACT });
const upTo = (stepId: string) => RUN.slice(0, RUN.findIndex(([id]) => id === stepId) + 1);

let app: TestApp;
let a: Clinic;
let b: Clinic;
let live: Awaited<ReturnType<typeof publishedFlow>>;
let sandbox: Awaited<ReturnType<typeof publishedFlow>>;
let other: Awaited<ReturnType<typeof publishedFlow>>;

async function rows(query: ReturnType<typeof sql>) {
  return ((await app.services.database.db.execute(query)) as unknown as { rows: Record<string, any>[] }).rows;
}
/** When the session last saved a step, as the database holds it. */
async function lastSave(id: string): Promise<number> {
  const [row] = await rows(sql`select updated_at from flow_session_answers where session_id = ${id}`);
  return new Date(row!.updated_at).getTime();
}
const clean = (what: string, text: string) => {
  for (const n of NEEDLES) expect(text, `${what} leaks ${n}`).not.toMatch(n);
};

beforeAll(async () => {
  app = await startTestApp({ EMBED_RATE_LIMIT: '100000' });
  a = await createTenantWithKeys(app, 'Resume Clinic');
  b = await createTenantWithKeys(app, 'Other Resume Clinic');
  const liveQ = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: true }, weightDocument('weight'));
  const sandboxQ = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument('weight'));
  const otherQ = await approvedQuestionnaire(app, { tenantId: b.tenantId, livemode: true }, weightDocument('weight'));
  live = await publishedFlow(app, { tenantId: a.tenantId, livemode: true }, liveQ, weightFlowDocument('weight'), { allowedOrigins: [ORIGIN] });
  sandbox = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, sandboxQ, weightFlowDocument('weight'));
  other = await publishedFlow(app, { tenantId: b.tenantId, livemode: true }, otherQ, weightFlowDocument('weight'), { allowedOrigins: [ORIGIN] });
});
afterEach(() => setClock(null));
afterAll(async () => {
  await app?.close();
});

describe("a session's own answers (GET …/sessions/{id})", () => {
  it('are given back to its own id, by step in step order, as each step takes them; never cached; sending them again saves the same', async () => {
    const c = flowClient(app, live.embedKey, ORIGIN);
    const id = await c.started();
    const fresh = await c.session(id);
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.answers).toBeNull();

    await c.answerAll(id, RUN);
    const view = await c.session(id);
    expect(view.status, view.text).toBe(200);
    expect(view.headers.get('cache-control')).toBe('no-store');
    expect(view.body).toMatchObject({ status: 'open', nextStepId: null });
    expect(Object.keys(view.body.answers)).toEqual(['welcome', 'goals', 'body', 'history', 'consent', 'contact']);
    expect(view.body.answers).toEqual({
      welcome: {},
      goals: { motivation: 'health' },
      body: { dob: DOB, height: 170, weight: 84 },
      history: { pregnant: false, takesMeds: true, meds: MEDS, goal: 'lose' },
      consent: { accepted: true, version: '2026-01' },
      // Live mode holds the contact step whole (the phone as +1…); its address comes back as the flat fields the step takes.
      contact: { name: NAME, email: EMAIL, state: 'CA', dateOfBirth: DOB, phone: '+14155550134', addressLine1: '9 Resume Lane', addressLine2: 'Unit 4', city: 'Oakland', postalCode: '94607' },
    });

    const [before] = await rows(sql`select steps from flow_session_answers where session_id = ${id}`);
    for (const [stepId, answers] of Object.entries(view.body.answers as Record<string, Record<string, unknown>>)) {
      const again = await c.step(id, stepId, answers);
      expect(again.status, `${stepId}: ${again.text}`).toBe(200);
    }
    const [after] = await rows(sql`select steps from flow_session_answers where session_id = ${id}`);
    expect(after!.steps).toEqual(before!.steps);
    const done = await c.submit(id, { name: NAME, email: EMAIL });
    expect(done.body.verdict, done.text).toBe('eligible');
  });

  it('sandbox: what sandbox holds of the contact step (its state only) is what comes back', async () => {
    const c = flowClient(app, sandbox.embedKey);
    const id = await c.started();
    await c.answerAll(id, RUN);
    const view = await c.session(id);
    expect(view.body.answers.contact).toEqual({ state: 'CA' });
    expect(view.body.answers.body).toEqual({ dob: DOB, height: 170, weight: 84 });
  });

  it('reach no other session: another session of the same key and flow reads only its own; another key or clinic reads nothing', async () => {
    const c = flowClient(app, live.embedKey, ORIGIN);
    const id = await c.started();
    await c.answerAll(id, upTo('history'));
    const second = await c.started();
    const empty = await c.session(second);
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body.answers).toBeNull();
    clean("another session's view", empty.text);
    await c.step(second, 'goals', { motivation: 'energy' });
    const own = await c.session(second);
    expect(own.body.answers).toEqual({ goals: { motivation: 'energy' } });
    clean("another session's view", own.text);
    // The first session still reads its own.
    expect((await c.session(id)).body.answers.history).toMatchObject({ meds: MEDS });

    // A second key serving the same flow, and another clinic's key: the session is theirs to know nothing of.
    const secondKey = newEmbedKeyId();
    const at = new Date();
    await app.services.database.db.insert(embedKeys).values({ id: secondKey, tenantId: a.tenantId, livemode: true, name: 'second', allowedOrigins: [ORIGIN], flowId: live.flowId, questionnaireKeys: [], createdAt: at, updatedAt: at });
    for (const res of [await flowClient(app, secondKey, ORIGIN).session(id), await flowClient(app, other.embedKey, ORIGIN).session(id)]) {
      expectEnvelope(res, 404, 'not_found');
      clean('a 404', res.text);
      expect(res.text).not.toContain(id);
    }
  });

  it('are no longer given back once the last save is 30 minutes old, nor once the session is submitted', async () => {
    const c = flowClient(app, live.embedKey, ORIGIN);
    const id = await c.started();
    await c.answerAll(id, upTo('history'));
    const savedAt = await lastSave(id);

    setClock(() => new Date(savedAt + ANSWERS_SHOWN_MS - 1000));
    expect((await c.session(id)).body.answers).toMatchObject({ body: { dob: DOB } });
    setClock(() => new Date(savedAt + ANSWERS_SHOWN_MS));
    const idle = await c.session(id);
    expect(idle.status, idle.text).toBe(200);
    // Where the run stands is still there (the session lives 24 h); what was answered is not.
    expect(idle.body).toMatchObject({ status: 'open', completedStepIds: ['welcome', 'goals', 'body', 'history'], nextStepId: 'consent', answers: null });
    clean('an idle session', idle.text);
    setClock(() => new Date(savedAt + 3 * ANSWERS_SHOWN_MS));
    expect((await c.session(id)).body.answers).toBeNull();

    // The patient is back and saves a step: the last save is recent again (the decision's rule).
    await c.step(id, 'consent', { accepted: true, version: '2026-01' });
    expect((await c.session(id)).body.answers).toMatchObject({ consent: { accepted: true } });
    setClock(null);

    // Submitted: nothing comes back, however recent the last save.
    const done = flowClient(app, live.embedKey, ORIGIN);
    const submitted = await done.started();
    await done.answerAll(submitted, RUN);
    expect((await done.submit(submitted, { name: NAME, email: EMAIL })).body.verdict).toBe('eligible');
    const closed = await done.session(submitted);
    expect(closed.body).toMatchObject({ status: 'completed', answers: null, outcome: { verdict: 'eligible' } });
    clean('a submitted session', closed.text);
  });

  it('are in no other response (definition, new session, step saves, beacons, submit, refusals) and in no log line', async () => {
    const logs = captureLogs();
    try {
      const seen: [string, ApiResponse][] = [];
      const c = flowClient(app, live.embedKey, ORIGIN);
      seen.push(['definition', await c.definition()]);
      const started = await c.start();
      seen.push(['new session', started]);
      const id = started.body.sessionId as string;
      for (const [stepId, answers] of RUN) seen.push([`save ${stepId}`, await c.step(id, stepId, answers)]);
      // The session's own view carries them: that one response is the point.
      expect((await c.session(id)).text).toMatch(/Resumewell/);
      seen.push(['beacon', await c.beacon(id, { type: 'step_viewed', stepId: 'contact' })]);
      seen.push(['refused step', await c.step(id, 'contact', { ...CONTACT, dateOfBirth: '1970-01-01' })]);
      seen.push(['refused submit', await c.submit(id, { name: 'Someone Else', email: EMAIL })]);
      seen.push(['submit', await c.submit(id, { name: NAME, email: EMAIL })]);
      seen.push(['a new session after', await c.start()]);
      seen.push(['the definition after', await c.definition()]);
      expect(seen.find(([what]) => what === 'refused step')![1].body.error.code).toBe('fact_mismatch');
      for (const [what, res] of seen) {
        expect(res.status, `${what}: ${res.text}`).toBeLessThan(500);
        clean(what, res.text);
        expect(res.text, what).not.toContain('"answers":{');
      }
      clean('log', logs.text());
    } finally {
      logs.restore();
    }
  });
});
