import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowClient, weightRunAnswers } from '../helpers/flow-run';
import { publishedFlow, weightFlowDocument } from '../helpers/flow-world';
import { createTenantWithKeys, startTestApp, type ApiResponse, type TestApp } from '../helpers/harness';
import { approvedQuestionnaire, weightDocument } from '../helpers/intake-world';
import { captureStatements } from '../helpers/pg-statements';
import { waitFor } from '../helpers/webhooks';

/*
 * SQL round trips per public runtime request (docs/decisions/performance.md, "Public runtime: statements per request"): every
 * statement the pool sends (BEGIN and COMMIT included) while one request is served, on PostgreSQL, where each
 * is a socket write and a wait. The figures are ceilings: a change that adds a statement to a hot path fails here.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
let app: TestApp;
let c: ReturnType<typeof flowClient>;
let startExperiment: () => Promise<ApiResponse>;
let statements: string[] = [];
const heard: (string | undefined)[] = [];
let restore: () => void = () => undefined;

async function counted(fn: () => Promise<ApiResponse>, status: number) {
  statements = [];
  const res = await fn();
  expect(res.status, res.text).toBe(status);
  return statements.length;
}

describe.skipIf(!onPostgres)('public flow runtime: SQL statements per request (PostgreSQL)', () => {
  beforeAll(async () => {
    app = await startTestApp({ EMBED_RATE_LIMIT: '100000' });
    const a = await createTenantWithKeys(app, 'Round trips');
    const q = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument('weight'));
    const world = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument('weight'));
    c = flowClient(app, world.embedKey);
    startExperiment = () =>
      app.request('POST', `/v1/flows/${world.flowId}/experiments`, {
        key: a.sandboxKey,
        body: { name: 'Theme', splitPct: 50, overrides: [{ stepId: '$flow', blocks: { theme: { primary: '#1d4ed8' } } }] },
      });
    // A whole run warms the process caches (pinned version, signing key), as any live server's are.
    const warm = await c.started();
    await c.answerAll(warm, weightRunAnswers());
    expect((await c.submit(warm)).status).toBe(200);
    app.services.servingKeys.onInvalidate((tenantId) => heard.push(tenantId));
    restore = captureStatements((statement) => statements.push(statement));
  });
  afterAll(async () => {
    restore();
    await app?.close();
  });

  it('stays within its statement budget for each request type', async () => {
    const figures: Record<string, number> = {};
    let id = '';
    figures.session = await counted(async () => {
      const res = await c.start();
      id = res.body.sessionId;
      return res;
    }, 201);
    figures.beacon = await counted(() => c.beacon(id, { type: 'view' }), 202);
    figures['beacon (retry)'] = await counted(() => c.beacon(id, { type: 'view' }), 202);
    figures['beacon step_viewed'] = await counted(() => c.beacon(id, { type: 'step_viewed', stepId: 'welcome' }), 202);
    const steps = weightRunAnswers();
    figures['step save'] = await counted(() => c.step(id, steps[0][0], steps[0][1]), 200);
    for (const [stepId, answers] of steps.slice(1, -1)) await c.step(id, stepId, answers);
    figures['step save (contact)'] = await counted(() => c.step(id, steps.at(-1)![0], steps.at(-1)![1]), 200);
    figures['session view'] = await counted(() => c.session(id), 200);
    figures.definition = await counted(() => c.definition(), 200);
    figures.submit = await counted(() => c.submit(id), 200);
    const before = heard.length;
    expect((await startExperiment()).status).toBe(201);
    // The change is forgotten twice: at once in the writing transaction, then again when its NOTIFY arrives on
    // the LISTEN connection. A key read before the NOTIFY is heard is forgotten again when it arrives, and the
    // next request counts the key's second read (the CI of stop 44), so the counting starts after it.
    await waitFor(() => heard.length >= before + 2, { what: 'the NOTIFY of the experiment start' });
    figures['session (experiment just started)'] = await counted(() => c.start(), 201);
    figures['session (experiment running)'] = await counted(() => c.start(), 201);
    // Before the round-trip work: session 10, beacon 7 (retry 6), step save 10, session view 4, definition 3, submit 25;
    // before the performance work (Issue 23, item 11): session 7, step save 7, submit 23; before its second round:
    // session 3, beacon 3, step save 5, submit 12.
    // The embed key with its flow, billing stage and running experiment comes from the process's key cache
    // (issue 35, DESIGN decision 37): read once, then forgotten only when a change to it is announced.
    expect(figures).toEqual({
      session: 1, // session+flow.viewed+mark+aggregate (one statement, no transaction)
      beacon: 1, // mark+aggregate (no transaction; the session from the process's memory of it)
      'beacon (retry)': 1,
      'beacon step_viewed': 1, // the pinned version comes from the process cache
      'step save': 1, // session locked+held answers merged+step.completed+marks+aggregate (one statement, no transaction)
      // + the held medical answers, to prefill and reconcile the identity facts (decision 31); only the contact step reads them
      'step save (contact)': 2,
      'session view': 2, // session, held answers
      definition: 0, // the key from the key cache, its active version's document from the process cache
      // begin, Idempotency-Key lock+claim, session locked, held answers, patient+access log,
      // submission+answers+events, session closed+answers released+mark+aggregate, stored response, commit
      // (the signing key is the process's: issue 35)
      submit: 9,
      // Starting the experiment announced a change: the key is read again, then the experiment's overrides once.
      'session (experiment just started)': 3,
      'session (experiment running)': 1, // flow.viewed and experiment.exposed in the same statement
    });
  });
});
