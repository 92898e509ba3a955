import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { createTenantWithKeys, startTestApp, type ApiResponse, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';
import { captureLogs } from './helpers/logs';
import { startReceiver, waitFor, type Receiver } from './helpers/webhooks';

/*
 * A patient's name, e-mail, birth date and free-text answers planted in every public flow input are found in
 * no event (GET /v1/developer/events), webhook delivery, stats answer, log line or error body (spec "Delivery"
 * 1 and 8, DESIGN §5).
 */

const NAME = 'Zebulon Quagmire-Phi';
const EMAIL = 'zeb.quagmire@planted.example';
const DOB = '1961-04-17';
const MEDS = 'Planted-Semaglutide-Regimen';
const NEEDLES = [/zebulon/i, /quagmire/i, /planted\.example/i, /1961-04-17/, /semaglutide/i, /planted-/i];
const ORIGIN = 'https://clinic.example';

let app: TestApp;
let rx: Receiver;
let a: Clinic;
let logs: ReturnType<typeof captureLogs>;

beforeAll(async () => {
  app = await startTestApp({ RUN_WORKER: 'true', WORKER_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '0,100ms', EMBED_RATE_LIMIT: '100000' });
  rx = await startReceiver();
  a = await createTenantWithKeys(app, 'PHI Clinic');
  logs = captureLogs();
});
afterAll(async () => {
  logs?.restore();
  await app?.close();
  await rx?.close();
});

const clean = (what: string, text: string) => {
  for (const n of NEEDLES) expect(text, `${what} leaks ${n}`).not.toMatch(n);
};

describe('PHI planted in a flow run', () => {
  it('reaches no event, webhook body, stats answer, log line or error body', async () => {
    const errorsSeen: ApiResponse[] = [];
    const refused = (res: ApiResponse) => {
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      errorsSeen.push(res);
    };
    for (const [livemode, key] of [
      [true, a.liveKey],
      [false, a.sandboxKey],
    ] as const) {
      const scope = { tenantId: a.tenantId, livemode };
      const hook = await app.request('POST', '/v1/developer/webhooks', { key, body: { url: `${rx.url}/hook` } });
      expect(hook.status, hook.text).toBe(201);
      const q = await approvedQuestionnaire(app, scope, weightDocument('weight'));
      const world = await publishedFlow(app, scope, q, weightFlowDocument('weight'), { allowedOrigins: [ORIGIN] });
      const c = flowClient(app, world.embedKey, ORIGIN);
      const contact = { name: NAME, email: EMAIL, state: 'CA', dateOfBirth: DOB };
      const run = weightRunAnswers({ body: { dob: DOB, height: 170, weight: 84 }, history: { pregnant: false, takesMeds: true, meds: MEDS }, contact });

      const id = await c.started();
      refused(await c.step(id, 'contact', { ...contact, email: `${NAME} <${EMAIL}>` }));
      refused(await c.step(id, 'contact', { ...contact, dateOfBirth: `${DOB}T00:00` }));
      refused(await c.step(id, 'history', { pregnant: MEDS, takesMeds: true, meds: MEDS }));
      // A key is named back only when it is id-shaped (so a typo can be found); free text as a key never is.
      refused(await c.step(id, 'body', { dob: `${DOB}!`, height: 170, weight: 84, [`${MEDS} ${NAME}`]: NAME }));
      refused(await c.step(id, 'goals', { motivation: 'health', [`${NAME} ${EMAIL}`]: MEDS }));
      refused(await c.step(id, MEDS, { note: NAME }));
      refused(await c.beacon(id, { type: 'step_viewed', stepId: EMAIL }));
      refused(await c.beacon(id, { type: EMAIL }));
      refused(await c.session(EMAIL));
      await c.answerAll(id, run);
      refused(await c.submit(id, { name: NAME, email: `${NAME}@` }));
      const done = await c.submit(id, { name: NAME, email: EMAIL });
      expect(done.body.verdict, done.text).toBe('eligible');
      clean('submit answer', done.text);
      clean('session view', (await c.session(id)).text);
      refused(await c.step(id, 'contact', contact));

      // A disqualified run too: only ids and the verdict leave.
      const other = await c.started();
      await c.answerAll(other, weightRunAnswers({ body: { dob: DOB, height: 170, weight: 84 }, history: { pregnant: true, takesMeds: true, meds: MEDS }, contact }));
      expect((await c.submit(other, { name: NAME, email: EMAIL })).body.verdict).toBe('disqualified');

      const stats = await app.request('GET', `/v1/flows/${world.flowId}/stats`, { key });
      expect(stats.status, stats.text).toBe(200);
      clean('stats', stats.text);
      const events = await app.request('GET', '/v1/developer/events?limit=100', { key });
      expect(events.status, events.text).toBe(200);
      const types = events.body.data.map((e: { type: string }) => e.type);
      expect(types).toEqual(expect.arrayContaining(['flow.viewed', 'step.completed', 'flow.qualified', 'flow.disqualified', 'flow.session.completed', 'intake.submission.created']));
      clean('event log', events.text);
      await waitFor(() => rx.received.some((r) => r.body.includes(other) && r.body.includes('flow.session.completed')), { what: 'the last delivery' });
      const deliveries = await app.request('GET', `/v1/developer/webhooks/${hook.body.id}/deliveries`, { key });
      clean('delivery history', deliveries.text);
    }
    expect(rx.received.length).toBeGreaterThan(10);
    for (const r of rx.received) clean('webhook body', r.body);
    for (const res of errorsSeen) clean(`error ${res.status} ${res.body?.error?.code}`, res.text);

    // A submit the database refuses (a CHECK planted on the patient's last name) fails with a 500 whose log
    // line is searched too: the driver's message would list the row's values.
    await app.services.database.db.execute(sql.raw(`alter table patients add constraint fr_test_refuse_planted check (last_name not like 'Quagmire%') not valid`));
    const scope = { tenantId: a.tenantId, livemode: true };
    const q = await approvedQuestionnaire(app, scope, weightDocument('weight2'));
    const world = await publishedFlow(app, scope, q, weightFlowDocument('weight2'), { allowedOrigins: [ORIGIN] });
    const c = flowClient(app, world.embedKey, ORIGIN);
    const id = await c.started();
    await c.answerAll(id, weightRunAnswers({ body: { dob: DOB, height: 170, weight: 84 }, contact: { name: NAME, email: `new.${EMAIL}`, state: 'CA', dateOfBirth: DOB } }));
    const failed = await c.submit(id, { name: NAME, email: `new.${EMAIL}` });
    expect(failed.status, failed.text).toBe(500);
    clean('500 body', failed.text);
    expect(logs.count()).toBeGreaterThan(0);
    clean('log', logs.text());
  });
});
