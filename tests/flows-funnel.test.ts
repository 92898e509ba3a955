import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import { flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { createTenantWithKeys, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';

/*
 * Issue 50 item 5: the funnel shows, per step, how many reached it and how many completed it, so the drop-off
 * at each step is visible. GET /v1/flows/{id}/stats gives each step of byStep `reached` (the sessions it was
 * shown to, by their step_viewed mark, never fewer than completed it) beside `completes` (DESIGN decision 34),
 * once per session however often a beacon is sent; the console's flowAnalytics.stats answers the same.
 */

const KEY = 'funnel';
let app: TestApp;
let a: Clinic;
let world: Awaited<ReturnType<typeof publishedFlow>>;

const STEPS = ['welcome', 'goals', 'body', 'history', 'consent', 'contact', 'result'];
const stats = (key = a.sandboxKey) => app.request('GET', `/v1/flows/${world.flowId}/stats`, { key });

beforeAll(async () => {
  app = await startTestApp({ EMBED_RATE_LIMIT: '100000' });
  a = await createTenantWithKeys(app, 'Funnel Clinic');
  const q = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument(KEY));
  world = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument(KEY));
  const c = flowClient(app, world.embedKey);
  const viewed = async (id: string, stepIds: string[]) => {
    // Each twice: a retried beacon is counted once.
    for (const stepId of [...stepIds, ...stepIds]) {
      const res = await c.beacon(id, { type: 'step_viewed', stepId });
      expect(res.status, res.text).toBe(202);
    }
  };
  // s1 sees and completes every step and submits.
  const s1 = await c.started();
  await viewed(s1, STEPS.slice(0, -1));
  await c.answerAll(s1, weightRunAnswers());
  expect((await c.submit(s1)).body.verdict).toBe('eligible');
  await viewed(s1, ['result']);
  // s2 is shown the first three pages, completes two and leaves on "About you".
  const s2 = await c.started();
  await viewed(s2, ['welcome', 'goals', 'body']);
  await c.answerAll(s2, weightRunAnswers().slice(0, 2));
  // s3 opens the flow and nothing more; s4's page sends no beacon, yet it completes the landing page.
  await c.started();
  const s4 = await c.started();
  await c.answerAll(s4, weightRunAnswers().slice(0, 1));
});
afterAll(async () => app?.close());

describe('the funnel: reached and completed per step', () => {
  it('each step says how many reached it and how many completed it; reached never falls below completed', async () => {
    const res = await stats();
    expect(res.status, res.text).toBe(200);
    expect(res.body.byStep).toEqual([
      // Shown to s1 and s2 by their beacons; completed by s1, s2 and s4, whose page sent none: reached is at least those.
      { stepId: 'welcome', reached: 3, completes: 3 },
      { stepId: 'goals', reached: 2, completes: 2 },
      // s2 left here: the drop-off at this step is reached − completes.
      { stepId: 'body', reached: 2, completes: 1 },
      { stepId: 'history', reached: 1, completes: 1 },
      { stepId: 'consent', reached: 1, completes: 1 },
      { stepId: 'contact', reached: 1, completes: 1 },
      // The outcome page: shown after the submit, completed by it.
      { stepId: 'result', reached: 1, completes: 1 },
    ]);
    for (const step of res.body.byStep) expect(step.reached).toBeGreaterThanOrEqual(step.completes);
    expect(res.body).toMatchObject({ views: 3, sessions: 4, qualified: 1, disqualified: 0 });
  });

  it('the console reads the same funnel over /api/trpc', async () => {
    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${a.sandboxKey}` } })] });
    const viaTrpc = await trpc.flowAnalytics.stats.query({ id: world.flowId });
    expect(viaTrpc).toEqual((await stats()).body);
  });

  it('another mode sees no such flow', async () => {
    expect((await stats(a.liveKey)).status).toBe(404);
  });
});
